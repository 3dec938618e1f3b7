/**
 * Options a plugin takes for one run from its flag, by the host option's name (e.g. a config file
 * in place of the data folder's); each front end that reads flags hands them to startHost as they are.
 */
export type PluginRunOptions = Readonly<Record<string, string>>;

/**
 * A flag a plugin adds to the commands that start a host (`ask`, `serve`, `mcp`), declared in the
 * plugin's folder and listed in host/plugins/builtin/: its name, its help line, and how its value
 * becomes options of the run.
 */
export interface PluginFlag {
  /** The flag without its dashes (`--NAME VALUE`). */
  name: string;
  help: { flag: string; text: string };
  /** What a blank value is refused with. */
  blank: string;
  read(value: string): PluginRunOptions;
}
