// Pure (zod only, data): the renderer bundles the settings table, which spreads these rows in, and
// `--help` reads the ways in's help from here without loading a way in (ports, a broker client, Modbus).
import type { WayInHelp } from '../links/way-in.ts';
import type { WayInSecret } from '../links/way-in-setting.ts';
import { MODBUS_WAY_IN_HELP } from '../modbus/modbus-way-in-help.ts';
import { mqttSecrets, mqttSettings } from '../mqtt/mqtt-settings.ts';

/**
 * The settings of every way in that has some, in the settings form's order: the host's settings table
 * spreads them in, and the help of the commands that reach devices reads them. A way in with settings
 * adds its rows here, beside its entry in builtin-ways-in.ts.
 */
export const BUILTIN_WAY_IN_SETTINGS = { ...mqttSettings } as const;

/** The secrets the ways in may use (kept in the OS keychain where the front end has one), by name. */
export const BUILTIN_WAY_IN_SECRETS: Readonly<Record<string, WayInSecret>> = { ...mqttSecrets };

/**
 * What help says of the options of every way in that has some a person types, in builtin-ways-in.ts's
 * order. A way in with such options adds its help here, beside its entry there.
 */
export const BUILTIN_WAY_IN_HELP: readonly WayInHelp[] = [MODBUS_WAY_IN_HELP];

/** What help says of the ways out's settings on `home-agent bridge` (the flags come from the settings table). */
export const WAY_OUT_HELP = {
  /** The part of the usage line that names where the devices go. */
  usage: '--mqtt URL [--mqtt-password-env VAR]',
  /** The same with example values, and what they say. */
  example: {
    flags: '--mqtt mqtt://cellar@broker.local:1883 --mqtt-password-env BROKER_PASSWORD',
    text: 'through the broker broker.local as user cellar, the password from $BROKER_PASSWORD',
  },
  /** What a bridge needs when none is configured. */
  missing: 'a broker to publish on: --mqtt mqtt://USER@HOST:PORT (the password from --mqtt-password-env VAR)',
} as const;
