import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dispatchApiCall } from '../../../host/api/dispatch-api-call.ts';
import type { Host } from '../../../host/app/create-host.ts';
import type { ApiMethod, ApiOutput } from '../../../host/contract/api-contract.ts';
import { startSimProcess } from '../../helpers/start-sim-process.ts';
import { devicesWhen, startTestHost, tempDataDir } from '../devices/host-rig.ts';
import { useOwnSimIndex } from '../../helpers/own-sim-index.ts';

// Scans in this file see only its own simulators (the machine may run others).
const index = useOwnSimIndex();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: { kinds: string[]; dir?: string; ids?: string[] }) {
  const data = tempDataDir();
  cleanups.push(() => data.remove());
  const sim = await startSimProcess({ ...options, env: { HOME_AGENT_SIM_INDEX: index } });
  cleanups.push(() => sim.stop());
  const { host, notices } = await startTestHost({ dataDir: data.dir });
  cleanups.push(() => host.dispose());
  return { host, sim, notices, dataDir: data.dir };
}

/** Calls the API as a transport does (validated input and output); rejects with the ApiError. */
function api<M extends ApiMethod>(host: Host, method: M, input: Record<string, unknown> = {}): Promise<ApiOutput<M>> {
  return dispatchApiCall(host.handlers, method, input) as Promise<ApiOutput<M>>;
}

// The simulator's lamp firmware and the AT relay board's (devices/simulator), as they announce themselves.
const LAMP = { id: 'lamp-1', kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' };
const RELAY = { id: 'relay-1', kind: 'relay', model: 'AT-RELAY-4', firmware: '1.4.0' };

describe('the devices API', () => {
  it("scans without opening a port, finding the simulator's ports and marking the paired one", async () => {
    const { host, sim } = await setup({ kinds: ['lamp', 'relay'] });
    const [lamp, relay] = sim.devices;
    const before = await api(host, 'devices/scan');
    expect(before.ports.filter((port) => port.source === 'sim')).toEqual([
      { path: lamp!.path, source: 'sim', simulated: { id: 'lamp-1', kind: 'lamp' }, paired: [] },
      {
        path: relay!.path,
        source: 'sim',
        simulated: { id: 'relay-1', kind: 'relay', profile: 'at-relay-4' },
        paired: [],
      },
    ]);
    expect(before.profiles).toContainEqual({ name: 'at-relay-4', protocol: 'lines' });
    await api(host, 'devices/pair', { path: lamp!.path, identity: LAMP, alias: 'Desk lamp' });
    const after = await api(host, 'devices/scan');
    expect(after.ports.find((port) => port.path === lamp!.path)?.paired).toEqual([
      { id: 'lamp-1', alias: 'Desk lamp' },
    ]);
  });

  it('lists a register-map profile with the options its way in asks, and refuses a probe whose options that way in refuses', async () => {
    const { host, sim } = await setup({ kinds: ['lamp'] });
    const { profiles } = await api(host, 'devices/scan');
    const relay8 = profiles.find((profile) => profile.name === 'relay-8');
    // What the Add-device form asks: the unit, labelled and bounded as the way in's schema says.
    expect(relay8?.options).toMatchObject({
      title: 'Modbus RTU',
      required: ['unit'],
      properties: { unit: { type: 'integer', minimum: 1, maximum: 247, title: 'Modbus unit (1–247)' } },
    });
    await expect(
      api(host, 'devices/probe', { path: sim.devices[0]!.path, profile: 'relay-8', options: { unit: 0 } }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/did not say who it is: relay-8: .*unit/s) });
    // The refusal ends with what to check on a bus, as the Modbus way in advises.
    await expect(
      api(host, 'devices/probe', { path: sim.devices[0]!.path, profile: 'relay-8', options: { unit: 0 } }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(
        /Check the path, the profile, the unit and the bus settings \(baud, parity, stop bits\)\.$/,
      ),
    });
    expect((await api(host, 'devices/list')).devices).toEqual([]);
  });

  it('refuses a probe of a plain-lines device asked without its profile, advising the profile as the serial way in does', async () => {
    const { host, sim } = await setup({ kinds: ['relay'] });
    await expect(api(host, 'devices/probe', { path: sim.devices[0]!.path })).rejects.toMatchObject({
      message: expect.stringMatching(
        /did not say who it is: .*Check the path and the profile \(a device that speaks plain lines needs one, e\.g\. at-relay-4\)\.$/s,
      ),
    });
  });

  it('probes a device to show who it is and which actions ask for approval, pairing nothing', async () => {
    const { host, sim } = await setup({ kinds: ['relay'] });
    const probed = await api(host, 'devices/probe', { path: sim.devices[0]!.path, profile: 'at-relay-4' });
    expect(probed).toMatchObject({ path: sim.devices[0]!.path, identity: RELAY, details: [] });
    expect(probed.actions.map((action) => [action.name, action.asksApproval])).toEqual([
      ['set', true],
      ['get', false],
    ]);
    expect(probed.actions[0]?.description).toBe('Switch one relay channel (1–4) on or off.');
    expect((await api(host, 'devices/list')).devices).toEqual([]);
  });

  it('pairs what the person was shown with no grants, and refuses a device that changed meanwhile', async () => {
    const { host, sim } = await setup({ kinds: ['lamp'] });
    const path = sim.devices[0]!.path;
    await expect(api(host, 'devices/pair', { path, identity: { ...LAMP, firmware: '0.9.0' } })).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('firmware 1.0.0'),
    });
    expect(await api(host, 'devices/pair', { path, identity: LAMP, alias: 'Desk lamp' })).toEqual({
      deviceId: 'lamp-1',
      alias: 'Desk lamp',
    });
    const [device] = await devicesWhen(host, (devices) => devices[0]?.online === true);
    expect(device).toMatchObject({ id: 'lamp-1', alias: 'Desk lamp', source: 'paired', granted: [], trusted: true });
  });

  it('pairs only the declaration the person was shown: the probe names it, pair gives it back', async () => {
    const { host, sim } = await setup({ kinds: ['lamp'] });
    const path = sim.devices[0]!.path;
    const probed = await api(host, 'devices/probe', { path });
    expect(probed.declarationHash).toMatch(/^[0-9a-f]{64}$/);
    await expect(
      api(host, 'devices/pair', { path, identity: LAMP, declarationHash: '0'.repeat(64) }),
    ).rejects.toMatchObject({
      status: 409,
      message: `${path} now declares other actions than the ones shown: look at it again before pairing`,
    });
    expect((await api(host, 'devices/list')).devices).toEqual([]);
    expect(await api(host, 'devices/pair', { path, identity: LAMP, declarationHash: probed.declarationHash })).toEqual({
      deviceId: 'lamp-1',
      alias: 'lamp-1',
    });
  });

  it('grants, revokes, renames and forgets, refusing unknown actions and devices with what to do', async () => {
    const { host, sim } = await setup({ kinds: ['lamp'] });
    await api(host, 'devices/pair', { path: sim.devices[0]!.path, identity: LAMP });
    expect(await api(host, 'devices/grant', { deviceId: 'lamp-1', actions: ['set'] })).toEqual({
      deviceId: 'lamp-1',
      granted: ['set'],
    });
    expect(await api(host, 'devices/grant', { deviceId: 'lamp-1', all: true })).toEqual({
      deviceId: 'lamp-1',
      granted: ['get', 'set'],
    });
    await expect(api(host, 'devices/grant', { deviceId: 'lamp-1', actions: ['explode'] })).rejects.toMatchObject({
      status: 400,
      message: 'lamp-1 has no action explode (it has set, get)',
    });
    await expect(api(host, 'devices/grant', { deviceId: 'lamp-1' })).rejects.toMatchObject({ status: 400 });
    await expect(api(host, 'devices/grant', { deviceId: 'lamp-9', all: true })).rejects.toMatchObject({
      status: 404,
      message: 'lamp-9 is not paired',
    });
    expect(await api(host, 'devices/revoke', { deviceId: 'lamp-1', actions: ['set'] })).toEqual({
      deviceId: 'lamp-1',
      granted: ['get'],
    });
    expect(await api(host, 'devices/rename', { deviceId: 'lamp-1', alias: '  Desk lamp ' })).toEqual({
      deviceId: 'lamp-1',
      alias: 'Desk lamp',
    });
    await expect(api(host, 'devices/rename', { deviceId: 'lamp-1', alias: '   ' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('the name is empty'),
    });
    const listed = (await api(host, 'devices/list')).devices[0];
    expect(listed).toMatchObject({ alias: 'Desk lamp', granted: ['get'] });
    expect(await api(host, 'devices/forget', { deviceId: 'lamp-1' })).toEqual({ forgotten: true });
    expect((await api(host, 'devices/list')).devices).toEqual([]);
  });

  it('refuses a name with a control or bidi character, or made only of invisible ones, saying why (the rule the CLI uses)', async () => {
    const { host, sim } = await setup({ kinds: ['lamp'] });
    await api(host, 'devices/pair', { path: sim.devices[0]!.path, identity: LAMP, alias: 'Desk lamp' });
    const refusals = [
      ['Desk\nlamp', 'the name holds a control character (\\u000a)'],
      ['lamp\u001b[2J', 'the name holds a control character (\\u001b)'],
      ['lamp\u0000', 'the name holds a control character (\\u0000)'],
      ['abc\u202edcba', 'the name holds a control character (\\u202e)'],
      ['\u200b\u200d', 'the name is made only of invisible characters (\\u200b \\u200d)'],
      ['x'.repeat(101), 'the name is longer than 100 characters'],
    ];
    for (const [alias, reason] of refusals) {
      await expect(api(host, 'devices/rename', { deviceId: 'lamp-1', alias })).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining(reason!),
      });
    }
    await expect(
      api(host, 'devices/pair', { path: sim.devices[0]!.path, identity: LAMP, alias: 'a\u2066b' }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('(\\u2066)') });
    expect((await api(host, 'devices/list')).devices[0]).toMatchObject({ alias: 'Desk lamp' });
  });

  it('opens only serial ports, and only with a built-in profile', async () => {
    const { host } = await setup({ kinds: ['lamp'] });
    const file = path.join(index, 'not-a-port');
    writeFileSync(file, 'root:x:0:0');
    await expect(api(host, 'devices/probe', { path: file })).rejects.toMatchObject({
      status: 400,
      message: `${file} is not a serial port (a regular file)`,
    });
    await expect(api(host, 'devices/probe', { path: '/dev/null', profile: file })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(`no built-in profile named '${file}'`),
    });
    await expect(api(host, 'devices/probe', { path: path.join(index, 'gone') })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('is not there (ENOENT)'),
    });
  });

  it('shows a changed identity beside the trusted one, refuses its calls, and trusts it when the person says so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-sim-dir-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { host, sim } = await setup({ kinds: ['lamp'], dir });
    const lampPath = sim.devices[0]!.path;
    expect(lampPath).toBe(path.join(dir, 'lamp-1'));
    await api(host, 'devices/pair', { path: lampPath, identity: LAMP });
    await api(host, 'devices/grant', { deviceId: 'lamp-1', all: true });
    await devicesWhen(host, (devices) => devices[0]?.online === true);
    await sim.stop();
    await devicesWhen(host, (devices) => devices[0]?.online === false);
    const again = await startSimProcess({
      kinds: ['lamp'],
      dir,
      ids: ['lamp-9'],
      env: { HOME_AGENT_SIM_INDEX: index },
    });
    cleanups.push(() => again.stop());
    expect(again.devices[0]!.path).toBe(lampPath);
    const [changed] = await devicesWhen(host, (devices) => devices[0]?.identityChange !== undefined);
    expect(changed).toMatchObject({
      id: 'lamp-1',
      trusted: false,
      identityChange: { trusted: LAMP, current: { ...LAMP, id: 'lamp-9' } },
    });
    const refused = await host.toolApi.call(
      { conversationId: 'c', caller: 'test', signal: AbortSignal.timeout(5000) },
      'lamp__set',
      { device_id: 'lamp-1', on: true },
    );
    expect(refused).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    await expect(
      api(host, 'devices/trust', { deviceId: 'lamp-1', identity: { ...LAMP, id: 'lamp-8' } }),
    ).rejects.toMatchObject({
      status: 409,
    });
    expect(await api(host, 'devices/trust', { deviceId: 'lamp-1', identity: { ...LAMP, id: 'lamp-9' } })).toEqual({
      deviceId: 'lamp-9',
    });
    const [trusted] = await devicesWhen(host, (devices) => devices[0]?.id === 'lamp-9' && devices[0].trusted === true);
    expect(trusted).toMatchObject({ granted: ['get', 'set'], source: 'paired' });
    expect(trusted?.identityChange).toBeUndefined();
    const allowed = await host.toolApi.call(
      { conversationId: 'c', caller: 'test', signal: AbortSignal.timeout(5000) },
      'lamp__set',
      { device_id: 'lamp-9', on: true },
    );
    expect(allowed).toMatchObject({ ok: true });
  });
});
