import { safeText } from '../../core/text/safe-text.ts';
import type { RefusedScannedDevice, ScannedDevice } from './way-in.ts';

/** The columns of a scanned device's line, for the legend. */
export const SCANNED_DEVICE_COLUMNS = ['PATH', 'SOURCE', 'ID', 'KIND', 'MODEL', 'STATE'] as const;

/** One tab-separated line of `devices scan` for a device a way in found: PATH, SOURCE, ID, KIND, MODEL, online|offline. */
export function formatScannedDevice(device: ScannedDevice): string {
  // A device names itself: what it says is escaped (safeText), so it makes no columns, lines or terminal codes.
  const cell = (text: string) => safeText(text);
  return [
    device.path,
    device.source,
    device.identity.id,
    device.identity.kind,
    device.identity.model,
    device.online ? 'online' : 'offline',
  ]
    .map(cell)
    .join('\t');
}

/** One stderr line of `devices scan` for an announcement a way in does not offer: its name, its SOURCE and why. */
export function formatRefusedDevice(device: RefusedScannedDevice): string {
  // Names and reasons carry what a peer announced: escaped like the lines on stdout.
  return `home-agent: refused ${safeText(device.name)} [source ${safeText(device.source)}]: ${safeText(device.why)}`;
}
