// The shared flags' parse options alone: what a command needs to read its command line before it
// knows whether it runs the home itself (then common-flags.ts reads them, loading the devices' code).
import type { ParseArgsConfig } from 'node:util';
import { settingsTable, SETTING_KEYS } from '../../contract/settings-table.ts';
import { BUILTIN_PLUGIN_FLAGS } from '../../plugins/builtin/builtin-plugin-run-options.ts';

/** A flag per setting (`--max-steps`), derived from the settings table. */
const settingFlagOptions = Object.fromEntries(
  SETTING_KEYS.map((key) => [settingsTable[key].flag, { type: 'string' as const }]),
) as Record<string, { type: 'string' }>;

/** The flags plugins add (each `--NAME VALUE`), from their one list. */
export const pluginFlagOptions = Object.fromEntries(
  BUILTIN_PLUGIN_FLAGS.map((flag) => [flag.name, { type: 'string' as const }]),
) as Record<string, { type: 'string' }>;

/** Flags that `ask`, `serve` and `mcp` share: every setting, the data folder, the devices, the script, the plugins' flags. */
export const commonFlagOptions = {
  ...settingFlagOptions,
  script: { type: 'string' },
  'data-dir': { type: 'string' },
  sim: { type: 'boolean' },
  'sim-latency-ms': { type: 'string' },
  device: { type: 'string', multiple: true },
  ...pluginFlagOptions,
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];
