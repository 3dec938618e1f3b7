import { ToolError } from '../../core/tools/tool-error.ts';
import { grantAllows } from '../links/device-grant.ts';
import type { DeviceEntry, DeviceRegistry } from '../registry/device-registry.ts';

/** The device a call may go to, or why it may not; never fails open. */
export type DeviceAuthorization = { ok: true; device: DeviceEntry } | { ok: false; error: ToolError };

/** The devices of `kind` on which the agent may use `action` now (granted, identity still trusted). */
export function authorisedDevices(registry: DeviceRegistry, options: { kind: string; action: string }): DeviceEntry[] {
  return registry
    .entriesView()
    .filter(
      (entry) =>
        entry.trustedIdentity.kind === options.kind &&
        entry.trusted &&
        grantAllows(entry.grant, options.action) &&
        entry.tools.some((tool) => tool.name === options.action),
    );
}

/**
 * Decides which device a `<kind>__<action>` call goes to. A given `device_id` must name a known,
 * trusted device of that kind with the action granted, else `unauthorized`. A missing one resolves
 * to the only authorised device of the kind; with several it is `required`, with none `unauthorized`.
 */
export function authorizeDeviceCall(
  registry: DeviceRegistry,
  options: { kind: string; action: string; args: Record<string, unknown> },
): DeviceAuthorization {
  const { kind, action } = options;
  const deviceId = options.args.device_id;
  if (deviceId === undefined || deviceId === null || deviceId === '') {
    const candidates = authorisedDevices(registry, { kind, action });
    if (candidates.length === 1) return { ok: true, device: candidates[0]! };
    if (candidates.length === 0) {
      return refuse(
        'unauthorized',
        `no ${kind} is authorised for ${action}`,
        'ask the user to pair the device and grant this action',
      );
    }
    const ids = candidates.map((candidate) => candidate.trustedIdentity.id).join(', ');
    return {
      ok: false,
      error: new ToolError({
        reason: 'required',
        field: 'device_id',
        detail: `several ${kind} devices can ${action}: ${ids}`,
        hint: `pass device_id, one of ${ids}`,
      }),
    };
  }
  if (typeof deviceId !== 'string')
    return {
      ok: false,
      error: new ToolError({ reason: 'type', field: 'device_id', detail: 'device_id must be a string' }),
    };
  const device = registry.get(deviceId);
  if (device === undefined)
    return refuse('unauthorized', `unknown device ${deviceId}`, 'use a device_id listed in the tool description');
  if (device.trustedIdentity.kind !== kind) return refuse('unauthorized', `${deviceId} is not a ${kind}`);
  if (!device.trusted)
    return refuse(
      'unauthorized',
      `${deviceId} ${device.untrustedBecause ?? 'is not trusted'}`,
      'ask the user to re-confirm the device',
    );
  if (!grantAllows(device.grant, action) || !device.tools.some((tool) => tool.name === action)) {
    return refuse(
      'unauthorized',
      `the agent may not use ${action} on ${deviceId}`,
      'ask the user to grant this action',
    );
  }
  return { ok: true, device };
}

function refuse(reason: 'unauthorized', detail: string, hint?: string): DeviceAuthorization {
  return {
    ok: false,
    error: new ToolError({ reason, field: 'device_id', detail, ...(hint !== undefined ? { hint } : {}) }),
  };
}
