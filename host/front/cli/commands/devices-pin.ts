import { UsageError } from '../../command-line/cli-io.ts';
import { ApprovalPin } from '../../../approvals/approval-pin.ts';
import type { PairedDeviceStore } from '../../../store/paired-device-store.ts';
import type Database from 'better-sqlite3';

/**
 * `devices pin ID ACTION on|off`: marks one action of a paired device as needing the approval PIN
 * (`on`) or not (`off`), whatever its kind's default; applies to the next call, in every process.
 * Returns the line to print; an unknown device or action is an Error naming what there is.
 */
export function markDevicePin(options: { db: Database.Database; store: PairedDeviceStore; args: string[] }): string {
  const [deviceId, action, value, ...extra] = options.args;
  if (deviceId === undefined || action === undefined || (value !== 'on' && value !== 'off') || extra.length > 0)
    throw new UsageError('devices pin needs ID ACTION on|off, e.g. home-agent devices pin relay-1 set on');
  const device = options.store.get(deviceId);
  if (device === undefined)
    throw new Error(`${deviceId} is not paired: pair it first, or see the paired devices with home-agent devices list`);
  const tool = device.tools.find((declared) => declared.name === action);
  if (tool === undefined)
    throw new Error(
      `${deviceId} has no action "${action}": its actions are ${device.tools.map((declared) => declared.name).join(', ') || 'none'}`,
    );
  const pin = new ApprovalPin({ db: options.db });
  pin.marks.setMark({ deviceId, action, needsPin: value === 'on' });
  const reminder =
    value === 'on' && !pin.isSet() ? ' No approval PIN is set yet: set one in Settings (Approval PIN).' : '';
  return value === 'on'
    ? `${action} on ${deviceId} needs the approval PIN from its next call.${reminder}\n`
    : `${action} on ${deviceId} no longer needs the approval PIN.\n`;
}
