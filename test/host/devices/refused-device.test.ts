import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { findExecutable } from '../../../host/devices/find-executable.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import type { HostNotice } from '../../../host/contract/api-contract.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { declaredAction, startHostileDevice } from '../../helpers/hostile-device.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SOCAT = findExecutable('socat') !== undefined;
const TAKES_CHAT =
  "hello refused: its kind 'output_send' and action 'chat' make the tool name 'output_send__chat', which belongs to the channels plugin";

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-refused-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function hostile(kind: string, tools: string[]) {
  const device = await startHostileDevice({
    id: `${kind.replace(/_/g, '-')}-1`,
    kind,
    tools: tools.map(declaredAction),
  });
  cleanups.push(() => device.close());
  return device;
}

describe.skipIf(!SOCAT)(
  'a device whose hello is refused, as a person sees it (needs socat: apt-get install socat)',
  () => {
    it('ask --device says why, at once, not that the device was not online in time', async () => {
      const device = await hostile('output_send', ['chat', 'notifications']);
      const result = await runCli(['ask', '--data-dir', dataDir(), '--device', device.path, 'hello']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${device.path}: ${TAKES_CHAT}`);
      expect(result.stderr).not.toContain('not online within');
    });

    it('devices pair says why a tool named like the <unlisted-tools> sentinel is refused', async () => {
      const device = await hostile('lamp', ['set', '<unlisted-tools>']);
      const result = await runCli(['devices', 'pair', device.path, '--yes', '--data-dir', dataDir()]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'hello refused: tools[1].name: lower-case word(s) joined by single - or _ (got "<unlisted-tools>")',
      );
    });

    it('logs the reason once and lists it as the last error of a paired device that comes up refused', async () => {
      const device = await hostile('output_send', ['chat']);
      const log: string[] = [];
      let heard: () => void = () => {};
      const logged = new Promise<void>((resolve) => (heard = resolve));
      const host = await createHost({
        dataDir: dataDir(),
        transport: 'web',
        model: new ScriptedModel({ replies: [] }),
        attachDevices: ({ pairingStore }) => {
          pairingStore.save({
            path: device.path,
            alias: 'the hostile one',
            identity: device.firmware.identity,
            tools: [declaredAction('chat')],
            grants: ['chat'],
            pairedAt: 1,
            confirmedIdentity: true,
            wayIn: 'serial',
          });
          return attachDevices({
            sim: false,
            devices: [],
            pairingStore,
            log: (line) => {
              log.push(line);
              if (line.includes('hello refused')) heard();
            },
            signal: new AbortController().signal,
          });
        },
        log: (line) => log.push(line),
        version: 'test',
      });
      cleanups.push(() => host.dispose());
      await logged;
      expect(log.filter((line) => line.includes('hello refused'))).toEqual([
        `output-send-1: ${TAKES_CHAT}: a device may never take another plugin's tool (give the device another kind in its firmware)`,
      ]);
      const { devices } = await host.handlers['devices/list']({});
      expect(devices).toHaveLength(1);
      expect(devices[0]).toMatchObject({ id: 'output-send-1', online: false });
      expect(devices[0]?.lastError?.message).toContain(TAKES_CHAT);
    });

    it('lets a flood of 50,000 events through at the device rate only: a handful of log lines and notices, the rest counted', async () => {
      const device = await hostile('button', ['get']);
      const log: string[] = [];
      const host = await createHost({
        dataDir: dataDir(),
        transport: 'web',
        model: new ScriptedModel({ replies: [] }),
        attachDevices: () =>
          attachDevices({
            sim: false,
            devices: [{ path: device.path }],
            log: (line) => log.push(line),
            signal: new AbortController().signal,
            eventsPerSecond: 5,
          }),
        log: (line) => log.push(line),
        version: 'test',
      });
      cleanups.push(() => host.dispose());
      const notices: HostNotice[] = [];
      host.notices.subscribe((notice) => notices.push(notice));
      const line = `${JSON.stringify({ event: 'pressed', data: {} })}\n`;
      const started = Date.now();
      for (let batch = 0; batch < 50; batch += 1) await device.firmware.sendRaw(line.repeat(1000));
      // Its answer follows every event line on the wire: once it is back, all 50,000 were read.
      const context = { conversationId: 'c1', caller: 'test', signal: AbortSignal.timeout(15_000) };
      expect(await host.toolApi.call(context, 'button__get', { device_id: 'button-1' })).toMatchObject({ ok: true });
      const seconds = (Date.now() - started) / 1000;

      const passed = notices.filter((notice) => notice.type === 'device/event').length;
      expect(passed).toBeGreaterThanOrEqual(5);
      expect(passed).toBeLessThanOrEqual(5 + Math.ceil(5 * seconds));
      expect(log.filter((entry) => entry.includes('reports pressed'))).toHaveLength(passed);
      expect(log.filter((entry) => entry.includes('faster than 5 a second'))).toHaveLength(1);
      const { devices } = await host.handlers['devices/list']({});
      expect(devices[0]?.eventsDropped).toBe(50_000 - passed);
    });
  },
);
