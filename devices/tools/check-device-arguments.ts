import type { ArgumentCheck } from '../../core/tools/validate-arguments.ts';
import { validateArguments } from '../../core/tools/validate-arguments.ts';
import { ToolError } from '../../core/tools/tool-error.ts';
import type { DeviceEntry } from '../registry/device-registry.ts';

/**
 * Checks a device call's arguments (without `device_id`) against the addressed device's own
 * declaration of the action, with the kernel's lenient coercions. Returns the checked arguments
 * to send, or the first problem, naming the device.
 */
export function checkDeviceArguments(options: {
  device: DeviceEntry;
  kind: string;
  action: string;
  args: Record<string, unknown>;
}): ArgumentCheck {
  const { device, kind, action } = options;
  const deviceId = device.trustedIdentity.id;
  const declaration = device.tools.find((tool) => tool.name === action);
  if (declaration === undefined)
    return {
      ok: false,
      error: new ToolError({
        reason: 'unauthorized',
        field: 'device_id',
        detail: `${deviceId} has no action ${action}`,
      }),
    };
  const { device_id: _deviceId, ...args } = options.args;
  return validateArguments({ toolName: `${kind}__${action} on ${deviceId}`, schema: declaration.parameters, args });
}
