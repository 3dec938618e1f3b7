import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DevicePairing } from '../../../devices/pairing/device-pairing.ts';
import { profileSource } from '../../../devices/profiles/resolve-profile.ts';
import type { DeviceTool } from '../../../devices/protocol/frame-schema.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PairedDeviceStore } from '../../../host/store/paired-device-store.ts';
import { declaredAction, startHostileDevice } from '../../helpers/hostile-device.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';
import { scriptedLineDevice, type ScriptedLineDevice } from '../../helpers/scripted-line-device.ts';
import { TempStoreFolder } from '../../host/store/temp-store-folder.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
let folder: TempStoreFolder | undefined;
afterEach(async () => {
  await owned.disposeAll();
  folder?.dispose();
  folder = undefined;
});

/** A paired-devices store on a real SQLite file, and a fresh registry as each start of the app makes. */
function setUp() {
  folder = new TempStoreFolder();
  const db = folder.own(openDatabase({ file: folder.file() }));
  const store = new PairedDeviceStore({ db });
  const start = (connectorFor?: () => ReturnType<typeof scriptedLineDevice>['connector']) => {
    const registry = owned.add(
      new DeviceRegistry({
        waysIn: builtinWaysIn(connectorFor ? { connectorFor } : {}),
        helloTimeoutMs: 1000,
        reconnectIntervalMs: 20,
      }),
    );
    const pairing = new DevicePairing({ store, registry, now: () => 1000 });
    return { registry, pairing };
  };
  return { store, start, dir: folder.path };
}

/** A door that speaks lines: `ID?` → `ID door-1 1.0`, `UNLOCK` → `OK`. */
const doorProfile = {
  name: 'Line door',
  kind: 'door',
  model: 'LD-1',
  lineEnding: '\n',
  identify: {
    command: 'ID?',
    response: {
      pattern: '^ID (?<id>[a-z0-9-]+) (?<firmware>[0-9.]+)$',
      captures: { id: 'string', firmware: 'string' },
    },
  },
  tools: [
    {
      name: 'unlock',
      description: 'Unlock the door',
      parameters: { type: 'object' },
      confirm: true,
      command: 'UNLOCK',
      responses: [{ pattern: '^OK$' }],
    },
  ],
};

/** Answers every line the host sends, on every connection, as the door would. */
function answerAsDoor(device: ScriptedLineDevice): void {
  const serve = async (index: number): Promise<void> => {
    const line = await device.line(index);
    if (line === 'ID?') await device.send('ID door-1 1.0\n');
    if (line === 'UNLOCK') await device.send('OK\n');
    await serve(index + 1);
  };
  void serve(0);
}

describe('pairing pins what the person agreed to', () => {
  it('pins a line profile file by content: edited to stop asking, the door is held until trusted, then the edit is pinned', async () => {
    const { store, start, dir } = setUp();
    const file = path.join(dir, 'door.json');
    const text = JSON.stringify(doorProfile, null, 2);
    writeFileSync(file, text);
    const device = scriptedLineDevice();
    answerAsDoor(device);
    const first = start(() => device.connector);
    await first.pairing.pair({ path: 'door', profile: file, confirm: () => true });
    expect(store.get('door-1')?.pinned).toEqual({
      tools: [
        {
          name: 'unlock',
          description: 'Unlock the door',
          parameters: { type: 'object' },
          parallelSafe: false,
          serial: false,
          confirm: true,
        },
      ],
      profile: profileSource(text),
    });
    first.pairing.grant('door-1', ['unlock']);
    await first.registry.dispose();

    const edited = JSON.stringify({ ...doorProfile, tools: [{ ...doorProfile.tools[0], confirm: false }] });
    writeFileSync(file, edited);
    const next = start(() => device.connector);
    await next.pairing.attachPaired();
    const entry = next.registry.get('door-1')!;
    await waitForStatus(entry.session, 'online');
    expect(next.registry.get('door-1')).toMatchObject({
      trusted: false,
      differences: [{ action: 'unlock', change: 'confirm', stronger: false }],
    });
    expect(next.registry.get('door-1')?.tools[0]?.confirm).toBe(true);

    expect(await next.pairing.reconfirm('door-1', () => true)).toBe(true);
    expect(next.registry.get('door-1')?.trusted).toBe(true);
    expect(store.get('door-1')?.pinned?.profile).toEqual(profileSource(edited));
    expect(store.get('door-1')?.grants).toEqual(['unlock']);
  });

  it('holds the door when its profile sends another command for the same action, though the action reads the same', async () => {
    const { store, start, dir } = setUp();
    const file = path.join(dir, 'door.json');
    writeFileSync(file, JSON.stringify(doorProfile));
    const device = scriptedLineDevice();
    answerAsDoor(device);
    const first = start(() => device.connector);
    await first.pairing.pair({ path: 'door', profile: file, confirm: () => true });
    await first.registry.dispose();

    writeFileSync(
      file,
      JSON.stringify({ ...doorProfile, tools: [{ ...doorProfile.tools[0], command: 'UNLOCK ALL' }] }),
    );
    const next = start(() => device.connector);
    await next.pairing.attachPaired();
    await waitForStatus(next.registry.get('door-1')!.session, 'online');
    expect(next.registry.get('door-1')).toMatchObject({
      trusted: false,
      differences: [{ change: 'profile', stronger: false, detail: `profile ${file}: its content changed (tools)` }],
    });
    expect(store.get('door-1')?.pinned?.profile).toEqual(profileSource(JSON.stringify(doorProfile)));
  });

  it('applies a profile file edited to ask before each use at once, before the device answers, and pins it', async () => {
    const { store, start, dir } = setUp();
    const file = path.join(dir, 'door.json');
    const unasked = JSON.stringify({ ...doorProfile, tools: [{ ...doorProfile.tools[0], confirm: false }] });
    writeFileSync(file, unasked);
    const device = scriptedLineDevice();
    answerAsDoor(device);
    const first = start(() => device.connector);
    await first.pairing.pair({ path: 'door', profile: file, confirm: () => true });
    await first.registry.dispose();

    const asking = JSON.stringify(doorProfile);
    writeFileSync(file, asking);
    // Nothing answers on this start: the door is still connecting when its actions are read.
    const silent = scriptedLineDevice();
    const next = start(() => silent.connector);
    await next.pairing.attachPaired();
    expect(next.registry.get('door-1')?.session.status).toBe('connecting');
    expect(next.registry.get('door-1')).toMatchObject({ trusted: true, tools: [{ name: 'unlock', confirm: true }] });
    expect(store.get('door-1')?.pinned?.profile).toEqual(profileSource(asking));
  });

  it('refuses to trust a device that changes what it declares again while the person looks', async () => {
    const { store, start } = setUp();
    const unlock: DeviceTool = { ...declaredAction('unlock'), confirm: true };
    const { confirm: _confirm, ...unasked } = unlock;
    const door = owned.add(await startHostileDevice({ id: 'door-1', kind: 'door', tools: [unlock] }));
    const { registry, pairing } = start();
    await pairing.pair({ path: door.path, confirm: () => true });
    const session = registry.get('door-1')!.session;
    await waitForStatus(session, 'online');
    const redeclare = async (tools: DeviceTool[]) => {
      const offline = waitForStatus(session, 'offline');
      door.redeclare(tools);
      await offline;
      await waitForStatus(session, 'online');
    };
    await redeclare([unasked]);

    await expect(
      pairing.reconfirm('door-1', async (candidate) => {
        expect(candidate.differences?.map((difference) => difference.detail)).toEqual([
          'unlock: no longer asks you before each use',
        ]);
        await redeclare([unasked, declaredAction('open')]);
        return true;
      }),
    ).rejects.toThrow('door-1 changed what it says while you looked: look at it again before trusting it');
    expect(registry.get('door-1')?.trusted).toBe(false);
    expect(store.get('door-1')?.pinned).toEqual({ tools: [unlock] });
  });
});
