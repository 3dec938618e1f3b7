import { ToolError } from '../../core/tools/tool-error.ts';
import type { ToolErrorReason } from '../../core/tools/tool-error.ts';
import type { DeviceError } from '../protocol/frame-schema.ts';

// A device may only report failures about its own work; it cannot claim host-level reasons
// (not_found, unauthorized, device_offline, aborted), which the host alone decides.
const DEVICE_REASONS = new Set<ToolErrorReason>(['required', 'type', 'invalid_json', 'timeout', 'denied', 'failed']);

/** Turns a device's `error` frame into a ToolError; unknown or host-only reasons become `failed`. */
export function mapDeviceError(error: DeviceError, deviceLabel: string): ToolError {
  const known = DEVICE_REASONS.has(error.reason as ToolErrorReason);
  const reason: ToolErrorReason = known ? (error.reason as ToolErrorReason) : 'failed';
  const detail = known ? error.detail : `device reported ${error.reason}${error.detail ? `: ${error.detail}` : ''}`;
  return new ToolError({
    reason,
    ...(detail !== undefined ? { detail: `${deviceLabel}: ${detail}` } : { detail: `${deviceLabel} failed` }),
    ...(error.field !== undefined ? { field: error.field } : {}),
  });
}
