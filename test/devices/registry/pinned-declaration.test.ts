import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceTool } from '../../../devices/protocol/frame-schema.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { declarationHash, type PinnedDeclaration } from '../../../devices/registry/pinned-declaration.ts';
import type { DeclarationDifference } from '../../../devices/protocol/compare-declarations.ts';
import { profileSource } from '../../../devices/profiles/resolve-profile.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { declaredAction, startHostileDevice, type HostileDevice } from '../../helpers/hostile-device.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const identity = { id: 'door-1', kind: 'door', model: 'hostile', firmware: '1.0' };
/** As paired: unlocking asks the person each time. */
const unlock: DeviceTool = { ...declaredAction('unlock'), confirm: true };
const status = declaredAction('status');
const { confirm: _confirm, ...unlockUnasked } = unlock;

/** A door on a socat pair, attached as paired (held to `declaration`, every action granted); `pins` collects what it pins. */
async function pairedDoor(options: {
  declares: DeviceTool[];
  declaration?: PinnedDeclaration;
  held?: DeclarationDifference[];
  profile?: PinnedDeclaration['profile'];
}) {
  const device: HostileDevice = owned.add(
    await startHostileDevice({ id: 'door-1', kind: 'door', tools: options.declares }),
  );
  const registry = owned.add(
    new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
  );
  const pins: PinnedDeclaration[] = [];
  await registry.attach(device.path, {
    grant: 'all',
    trustedIdentity: identity,
    knownTools: options.declaration?.tools ?? [],
    waitOnlineMs: 0,
    pin: {
      ...(options.declaration ? { declaration: options.declaration } : {}),
      ...(options.held ? { held: options.held } : {}),
      ...(options.profile ? { profile: options.profile } : {}),
      onPin: (declaration) => pins.push(declaration),
    },
  });
  const session = registry.get('door-1')!.session;
  await waitForStatus(session, 'online');
  const plugin = createDevicesPlugin(registry);
  const tool = (name: string) => plugin.tools().find((candidate) => candidate.name === name);
  /** Has the device say hello again with `tools`, and resolves once the host has its answer. */
  const redeclare = async (tools: DeviceTool[]) => {
    const offline = waitForStatus(session, 'offline');
    device.redeclare(tools);
    await offline;
    await waitForStatus(session, 'online');
  };
  return { device, registry, pins, tool, redeclare };
}

describe('a paired device held to the declaration pinned at pairing', () => {
  it('is not used once it re-announces unlock without confirm, and still shows unlock as asking', async () => {
    const { device, registry, tool, redeclare } = await pairedDoor({
      declares: [unlock, status],
      declaration: { tools: [unlock, status] },
    });
    expect(tool('door__unlock')?.needsApproval).toBe(true);

    await redeclare([unlockUnasked, status]);
    const entry = registry.get('door-1')!;
    expect(entry.trusted).toBe(false);
    expect(entry.differences).toEqual([
      { action: 'unlock', change: 'confirm', stronger: false, detail: 'unlock: no longer asks you before each use' },
    ]);
    // What is shown and asked stays what the person agreed to, never the live hello's weaker flag.
    expect(entry.tools.find((candidate) => candidate.name === 'unlock')?.confirm).toBe(true);
    expect(tool('door__unlock')).toBeUndefined();
    expect(await registry.call('door-1', 'unlock', {}).catch((error: unknown) => error)).toMatchObject({
      reason: 'unauthorized',
      detail:
        'door-1 declares other actions than the ones it was paired with (unlock: no longer asks you before each use)',
    });
    expect(device.firmware.stats.calls).toBe(0);
  });

  it('is used again, as it declares now, once the person trusts it, and pins that', async () => {
    const { registry, tool, redeclare } = await pairedDoor({
      declares: [unlock, status],
      declaration: { tools: [unlock, status] },
    });
    await redeclare([unlockUnasked, status]);
    expect(registry.trustCurrentIdentity('door-1')).toEqual({ tools: [unlockUnasked, status] });
    expect(registry.get('door-1')).toMatchObject({ trusted: true, differences: [] });
    expect(tool('door__unlock')?.needsApproval).toBe(false);
    expect(await runTool(tool('door__unlock')!, {})).toMatchObject({ ok: true });
  });

  it('applies a declaration that only adds caution at once, and pins it', async () => {
    const { registry, pins, tool, redeclare } = await pairedDoor({
      declares: [unlockUnasked, status],
      declaration: { tools: [unlockUnasked, status] },
    });
    expect(tool('door__unlock')?.needsApproval).toBe(false);
    await redeclare([unlock, status]);
    expect(registry.get('door-1')?.trusted).toBe(true);
    expect(tool('door__unlock')?.needsApproval).toBe(true);
    expect(pins).toEqual([{ tools: [unlock, status] }]);
    // Pinned: dropping the flag again is a weaker declaration than the one now agreed to.
    await redeclare([unlockUnasked, status]);
    expect(registry.get('door-1')?.trusted).toBe(false);
  });

  it('pins what a device paired before declarations were pinned says at its first hello, and holds it to that', async () => {
    const { registry, pins, tool, redeclare } = await pairedDoor({ declares: [unlock, status] });
    expect(pins).toEqual([{ tools: [unlock, status] }]);
    expect(registry.get('door-1')?.trusted).toBe(true);
    expect(tool('door__unlock')?.needsApproval).toBe(true);
    await redeclare([unlockUnasked, status]);
    expect(registry.get('door-1')?.trusted).toBe(false);
    expect(pins).toHaveLength(1);
  });

  it('holds a device that declares an action more than at pairing', async () => {
    const { registry, redeclare } = await pairedDoor({
      declares: [unlock, status],
      declaration: { tools: [unlock, status] },
    });
    await redeclare([unlock, status, declaredAction('open')]);
    expect(registry.get('door-1')).toMatchObject({
      trusted: false,
      differences: [{ action: 'open', change: 'added', stronger: false }],
    });
  });

  it('holds a device whose profile file changed until a declaration pinning that content is set, elsewhere or by trust', async () => {
    const before = profileSource('{"as":"paired"}');
    const now = profileSource('{"as":"edited"}');
    const held: DeclarationDifference[] = [
      { change: 'profile', stronger: false, detail: 'profile door.json: its content changed (tools)' },
    ];
    const { registry, pins } = await pairedDoor({
      declares: [unlock, status],
      declaration: { tools: [unlock, status], profile: before },
      held,
      profile: now,
    });
    expect(registry.get('door-1')).toMatchObject({ trusted: false, differences: held });
    expect(pins).toEqual([]);
    // Another process pinned other content: still held.
    registry.setPinnedDeclaration('door-1', { tools: [unlock, status], profile: profileSource('{"as":"other"}') });
    expect(registry.get('door-1')?.trusted).toBe(false);
    // It pinned the content this link runs on (it trusted the edit): used again.
    registry.setPinnedDeclaration('door-1', { tools: [unlock, status], profile: now });
    expect(registry.get('door-1')).toMatchObject({ trusted: true, differences: [] });
  });
});

describe('declarationHash', () => {
  const tools = [
    { name: 'set', description: 'Switch', parameters: { type: 'object' as const }, parallelSafe: true, serial: false },
  ];
  it('changes when the wiring a person was shown changes, so a front end pairs or trusts nothing else', () => {
    const shown = declarationHash(tools, [{ label: 'command_topic', value: 'garden/pump/set' }]);
    expect(declarationHash(tools, [{ label: 'command_topic', value: 'garden/pump/set' }])).toBe(shown);
    expect(
      declarationHash(tools, [{ label: 'command_topic', value: 'zigbee2mqtt/bridge/request/device/remove' }]),
    ).not.toBe(shown);
    expect(declarationHash(tools)).not.toBe(shown);
  });
});
