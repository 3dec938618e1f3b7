import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { attachDevices } from '../../../../host/devices/attach-devices.ts';
import { findExecutable } from '../../../../host/devices/find-executable.ts';
import { startPseudoTerminalPair } from '../../../../devices/simulator/pseudo-terminal-pair.ts';
import type { WebServer } from '../../../../host/front/web/web-server.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { mountTmpfs } from '../../../helpers/mount-tmpfs.ts';
import { useOwnSimIndex } from '../../../helpers/own-sim-index.ts';

const TOKEN = 'test-token-0123456789abcdef';
const SOCAT = findExecutable('socat') !== undefined;

// Only this file's simulators are announced to its hosts (the machine may run others).
const index = useOwnSimIndex();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(): Promise<WebServer> {
  const { server } = await serveTestHost(cleanups, {
    dataDirPrefix: 'home-agent-probe-',
    token: TOKEN,
    attachDevices: (stores) =>
      attachDevices({ sim: false, devices: [], ...stores, log: () => {}, signal: new AbortController().signal }),
  });
  return server;
}

/** One API call over HTTP with the token, as the window makes it. */
async function call(server: WebServer, method: string, input: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: await response.json() };
}

/** What the API answers a refused probe: 400 with the reason. */
function refusal(reason: string) {
  return {
    status: 400,
    body: expect.objectContaining({ ok: false, error: expect.objectContaining({ message: reason }) }),
  };
}

describe.skipIf(!SOCAT)("the window's API opens only serial ports (needs socat: apt-get install socat)", () => {
  it('refuses /dev/tty, /dev/console, a regular file and a watchdog path before opening anything, saying what each is', async () => {
    const server = await serve();
    const terminal = (name: string) =>
      `is the terminal '${name}' (a console or virtual terminal), not a serial port: opening it would type into it`;
    expect(await call(server, 'devices/probe', { path: '/dev/tty' })).toMatchObject(
      refusal(`/dev/tty ${terminal('tty')}`),
    );
    expect(await call(server, 'devices/probe', { path: '/dev/console' })).toMatchObject(
      refusal(`/dev/console ${terminal('console')}`),
    );
    const file = path.join(index, 'passwd');
    writeFileSync(file, 'root:x:0:0');
    expect(await call(server, 'devices/probe', { path: file })).toMatchObject(
      refusal(`${file} is not a serial port (a regular file)`),
    );
    // Never opened here: where a watchdog exists, opening it arms a reboot. Absent, it is "not there".
    const watchdog = await call(server, 'devices/probe', { path: '/dev/watchdog' });
    expect(watchdog.status).toBe(400);
    expect(JSON.stringify(watchdog.body)).toMatch(
      existsSync('/dev/watchdog') ? /is not a serial port: the system lists it as the \w+ device/ : /is not there/,
    );
    expect(await call(server, 'devices/pair', { path: '/dev/console', identity: LAMP })).toMatchObject(
      refusal(`/dev/console ${terminal('console')}`),
    );
  });

  it('refuses a node with the watchdog’s device number, on a file system where it could not be opened anyway', async (context) => {
    // A tmpfs mounted nodev: even a broken check could not open the device behind this node.
    const mounted = mountTmpfs({ sizeKb: 64 });
    if (!('path' in mounted)) return context.skip(mounted.skip);
    cleanups.push(() => mounted.unmount());
    execFileSync('mount', ['-o', 'remount,nodev', mounted.path]);
    const node = path.join(mounted.path, 'watchdog');
    try {
      execFileSync('mknod', [node, 'c', '10', '130'], { stdio: 'pipe' });
    } catch (error) {
      return context.skip(`mknod is not allowed here: ${(error as Error).message}`);
    }
    const server = await serve();
    const answer = await call(server, 'devices/probe', { path: node });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(
      existsSync('/sys/dev/char/10:130')
        ? new RegExp(`${node} is not a serial port: the system lists it as the \\w+ device 'watchdog'`)
        : new RegExp(`${node} is a character device \\(10:130\\) the system does not list as a serial port`),
    );
  });

  it('refuses a socat pseudo-terminal that no simulator announced, writing nothing into it and leaving its settings alone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-pty-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const pair = await startPseudoTerminalPair({ hostPath: path.join(dir, 'port'), devicePath: path.join(dir, 'far') });
    cleanups.push(() => pair.close());
    const pts = await realpath(pair.hostPath);
    const settings = execFileSync('stty', ['-F', pair.hostPath, '-g']).toString();
    // The far end is read from the start: anything a probe wrote would be there before the marker below.
    const far = createReadStream(pair.devicePath);
    cleanups.push(() => void far.destroy());
    // Reading a pseudo-terminal whose other side went away fails with EIO: the end of this test.
    far.on('error', () => undefined);
    await new Promise((resolve) => far.once('open', resolve));
    let read = '';
    const markerRead = new Promise<void>((resolve) =>
      far.on('data', (chunk) => {
        read += chunk.toString();
        if (read.includes('marker\n')) resolve();
      }),
    );
    const server = await serve();
    const announce = (named: string) =>
      `${named} is a pseudo-terminal that no running simulator announced: the window opens only serial ports and simulators' ports. Pair a pseudo-terminal you chose (socat, simavr) on the command line: home-agent devices pair ${named}`;
    expect(await call(server, 'devices/probe', { path: pair.hostPath })).toMatchObject(
      refusal(announce(pair.hostPath)),
    );
    expect(await call(server, 'devices/probe', { path: pts })).toMatchObject(refusal(announce(pts)));
    expect(await call(server, 'devices/pair', { path: pts, identity: LAMP })).toMatchObject(refusal(announce(pts)));

    const near = openSync(pair.hostPath, 'r+');
    try {
      writeSync(near, 'marker\n');
      await markerRead;
    } finally {
      closeSync(near);
    }
    expect(read).toBe('marker\n');
    expect(execFileSync('stty', ['-F', pair.hostPath, '-g']).toString()).toBe(settings);
  });

  it("probes and pairs a simulator's announced pseudo-terminal from the window", async () => {
    const sim = await startSimProcess({ kinds: ['lamp'], env: { HOME_AGENT_SIM_INDEX: index } });
    cleanups.push(() => sim.stop());
    const server = await serve();
    const lamp = sim.devices[0]!.path;
    expect(await call(server, 'devices/probe', { path: lamp })).toMatchObject({
      status: 200,
      body: { ok: true, result: { path: lamp, identity: LAMP } },
    });
    expect(await call(server, 'devices/pair', { path: lamp, identity: LAMP, alias: 'Desk lamp' })).toMatchObject({
      status: 200,
      body: { ok: true, result: { deviceId: 'lamp-1', alias: 'Desk lamp' } },
    });
  });
});

// The simulator's lamp firmware (devices/simulator), as it announces itself.
const LAMP = { id: 'lamp-1', kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' };
