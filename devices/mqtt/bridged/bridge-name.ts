import { z } from 'zod';

/** The longest bridge name: room for `NAME.` before a device's own id within the 64 characters of an id. */
export const MAX_BRIDGE_NAME = 32;

/**
 * A bridge's name: 1–32 of `[a-z0-9-]`, starting with a letter or digit (it starts the ids of its
 * devices, `NAME.lamp-1`, and an id starts so). It is a topic level and part of every device's path.
 */
export const bridgeNameSchema = z
  .string()
  .regex(
    new RegExp(`^[a-z0-9][a-z0-9-]{0,${MAX_BRIDGE_NAME - 1}}$`),
    `1–${MAX_BRIDGE_NAME} lower-case letters, digits and -, starting with a letter or digit`,
  );

/** A machine's host name made into a bridge name: its first label, lower-cased, other characters as `-`; `bridge` when nothing is left. */
export function bridgeNameFromHostName(hostName: string): string {
  const label = hostName.split('.')[0] ?? '';
  const name = label
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_BRIDGE_NAME)
    .replace(/-+$/, '');
  return name === '' ? 'bridge' : name;
}
