import { createHash } from 'node:crypto';

/** The conventions whose devices are named by a friendly name or a topic rather than by a hello. */
export type ConventionSource = 'z2m' | 'tasmota' | 'ha';

const MAX_ID = 64;
const HASH_LENGTH = 8;

/**
 * The one rule that turns a name a convention gives a device (a Zigbee2MQTT friendly name, a
 * Tasmota topic, a discovery `NODE/OBJECT`) into a device id within `deviceIdentitySchema`:
 * `SOURCE_` then the name, each `/` read as `.` (topic levels) and each run of any other character
 * outside `[A-Za-z0-9_-]` (a space, a `.`, `+`, an accent) as one `-`. A name that needed such a run
 * replaced, or whose id would pass 64 characters, is cut to fit and ends with `-` and 8 hex digits
 * of the SHA-256 of the exact name, so `kitchen lamp` and `kitchen+lamp` never share an id. Pure
 * and independent of what else was found, so an id never changes between runs. The `_` after the
 * source keeps these ids apart from bridged ones (`BRIDGE.ID`, BRIDGE of `[a-z0-9-]` only).
 */
export function mqttDeviceId(source: ConventionSource, name: string): string {
  const levels = name.split('/').map((level) => level.replace(/[^A-Za-z0-9_-]+/g, '-'));
  const readable = `${source}_${levels.join('.')}`;
  const lossless = !/[^A-Za-z0-9_/-]/.test(name);
  if (lossless && readable.length <= MAX_ID) return readable;
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_LENGTH);
  return `${readable.slice(0, MAX_ID - HASH_LENGTH - 1)}-${hash}`;
}
