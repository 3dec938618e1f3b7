import type { PairingStore } from '../../devices/pairing/pairing-store.ts';
import type { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import type { DeviceSummary } from '../contract/api-contract.ts';
import type { StandingApproval } from '../store/standing-approval-store.ts';
import { declarationHash } from '../../devices/registry/pinned-declaration.ts';
import { actionsOf } from './device-admin.ts';
import type { DeviceActivity } from './device-activity.ts';
import type { DeviceConflict } from './paired-devices-sync.ts';

/**
 * Every device as the Devices tab shows it: the attached ones (paired, or named on the command
 * line) with their status, last error, recent events, actions, grants and standing approvals, an
 * identity change beside the trusted one, then the paired devices left out by an id or port conflict.
 */
export function summarizeDevices(options: {
  registry: DeviceRegistry;
  store: PairingStore | undefined;
  activity: DeviceActivity;
  conflicts: readonly DeviceConflict[];
  commandLineAddresses: ReadonlySet<string>;
  standing: readonly StandingApproval[];
}): DeviceSummary[] {
  const { registry, activity } = options;
  const attached = registry.list().map((device): DeviceSummary => {
    const entry = registry.get(device.id);
    const tools = entry?.tools ?? [];
    const hello = entry?.session.hello;
    const lastError = activity.lastError(device.id);
    const stats = entry?.session.stats;
    const granted = device.grant === 'all' ? tools.map((tool) => tool.name) : [...device.grant];
    const source = options.commandLineAddresses.has(device.address) ? 'command-line' : 'paired';
    const stored = source === 'paired' ? options.store?.get(device.id) : undefined;
    const movedFrom = stored?.movedFrom;
    return {
      id: device.id,
      alias: device.alias || device.id,
      room: stored?.room ?? '',
      kind: device.kind,
      path: device.path,
      online: device.online,
      tools: device.tools,
      trusted: device.trusted,
      frameProblems: {
        oversized: stats?.oversized ?? 0,
        invalidJson: stats?.invalidJson ?? 0,
        invalidFrame: stats?.invalidFrame ?? 0,
      },
      source,
      status: device.status,
      model: device.model,
      firmware: device.firmware,
      actions: actionsOf(tools),
      granted: granted.filter((name) => tools.some((tool) => tool.name === name)),
      alwaysAllowed: alwaysAllowed(options.standing, device.id, device.kind),
      ...(lastError ? { lastError } : {}),
      eventsDropped: device.eventsDropped,
      recentEvents: activity.recentEvents(device.id),
      ...(movedFrom ? { movedFrom } : {}),
      ...(entry && hello && !device.trusted
        ? {
            identityChange: {
              trusted: entry.trustedIdentity,
              current: hello.device,
              currentActions: actionsOf(hello.tools),
              differences: entry.differences,
              declarationHash: declarationHash(hello.tools, entry.session.wiring),
            },
          }
        : {}),
    };
  });
  const leftOut = options.conflicts.map(({ paired, message }): DeviceSummary => ({
    id: paired.identity.id,
    alias: paired.alias,
    room: paired.room ?? '',
    kind: paired.identity.kind,
    path: paired.path,
    online: false,
    tools: paired.tools.map((tool) => tool.name),
    trusted: true,
    source: 'paired',
    status: 'left-out',
    model: paired.identity.model,
    firmware: paired.identity.firmware,
    actions: actionsOf(paired.tools),
    granted: paired.grants,
    alwaysAllowed: alwaysAllowed(options.standing, paired.identity.id, paired.identity.kind),
    recentEvents: [],
    conflict: message,
  }));
  return [...attached, ...leftOut];
}

/** The actions of a device that a standing approval covers (its tools are `<kind>__<action>`). */
function alwaysAllowed(standing: readonly StandingApproval[], deviceId: string, kind: string): string[] {
  const prefix = `${kind}__`;
  return standing
    .filter((approval) => approval.deviceId === deviceId && approval.tool.startsWith(prefix))
    .map((approval) => approval.tool.slice(prefix.length))
    .sort();
}
