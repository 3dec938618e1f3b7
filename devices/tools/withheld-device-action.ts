import { ToolError } from '../../core/tools/tool-error.ts';
import type { DeviceRegistry } from '../registry/device-registry.ts';
import { safeText } from '../../core/text/safe-text.ts';

/**
 * Why `<kind>__<action>` is not offered although a paired device of that kind declares the action:
 * nobody granted it (or the device's identity changed). The call is then `unauthorized`, saying
 * which device and what the person can do, instead of `not_found`: the model can tell the person
 * the truth. Undefined when no attached device declares the action (a name the devices never had).
 */
export function withheldDeviceAction(registry: DeviceRegistry, name: string): ToolError | undefined {
  const separator = name.indexOf('__');
  if (separator <= 0) return undefined;
  const kind = name.slice(0, separator);
  const action = name.slice(separator + 2);
  const declaring = registry
    .entriesView()
    .filter((entry) => entry.trustedIdentity.kind === kind && entry.tools.some((tool) => tool.name === action));
  if (declaring.length === 0) return undefined;
  const reasons = declaring.map((entry) => {
    const id = entry.trustedIdentity.id;
    const named = entry.alias && entry.alias !== id ? `${id} ("${safeText(entry.alias)}")` : id;
    return entry.trusted
      ? `${action} is not granted on ${named}`
      : `${named} ${entry.untrustedBecause ?? 'is not trusted'}`;
  });
  return new ToolError({
    reason: 'unauthorized',
    field: 'device_id',
    detail: `the agent may not use ${action} on any ${kind} now: ${reasons.join('; ')}`,
    hint: 'tell the person; they can allow it in the Devices tab (or: home-agent devices grant ID ACTION). Do not retry before they do.',
  });
}
