import type { DeviceIdentity } from '../protocol/frame-schema.ts';
import type { ModbusProfile } from './modbus-profile-schema.ts';

const MAX_ID = 64;
const MAX_FIRMWARE = 100;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The id of a Modbus device: it has no hello to say one, so the id is made of what places it —
 * the profile's model, the port and the unit (`sdm120-ttyusb0-u1`). A device moved to another
 * port or unit is another device (paired anew, with no grants).
 */
export function modbusDeviceId(options: { model: string; path: string; unit: number }): string {
  const model = slug(options.model).slice(0, 24) || 'modbus';
  const suffix = `-u${options.unit}`;
  const port = slug(options.path.replace(/^\/dev\//, '')) || 'port';
  const room = MAX_ID - model.length - 1 - suffix.length;
  // Long paths (/dev/serial/by-id/usb-FTDI_…) keep their distinctive end.
  const portPart = port.length > room ? port.slice(port.length - room).replace(/^-+/, '') : port;
  return `${model}-${portPart}${suffix}`;
}

/**
 * The identity shown and stored for a Modbus device: id from placement, kind and model from the
 * profile, and in place of firmware what the profile's `identify` registers read (`serial=39081234`),
 * so a different device answering at the same port and unit no longer matches the paired one.
 */
export function modbusIdentity(options: {
  profile: ModbusProfile;
  path: string;
  unit: number;
  identified: Readonly<Record<string, unknown>>;
}): DeviceIdentity {
  const firmware = Object.entries(options.identified)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ')
    .slice(0, MAX_FIRMWARE);
  return {
    id: modbusDeviceId({ model: options.profile.model, path: options.path, unit: options.unit }),
    kind: options.profile.kind,
    model: options.profile.model.slice(0, 100),
    firmware,
  };
}
