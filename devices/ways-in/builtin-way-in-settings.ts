// Pure (zod only): the renderer bundles the settings table, which spreads these rows in.
import type { WayInSecret } from '../links/way-in-setting.ts';
import { mqttSecrets, mqttSettings } from '../mqtt/mqtt-settings.ts';

/**
 * The settings of every way in that has some, in the settings form's order: the host's settings table
 * spreads them in, and the help of the commands that reach devices reads them. A way in with settings
 * adds its rows here, beside its entry in builtin-ways-in.ts.
 */
export const BUILTIN_WAY_IN_SETTINGS = { ...mqttSettings } as const;

/** The secrets the ways in may use (kept in the OS keychain where the front end has one), by name. */
export const BUILTIN_WAY_IN_SECRETS: Readonly<Record<string, WayInSecret>> = { ...mqttSecrets };
