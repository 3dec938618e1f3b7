import type { CommandTable } from './run-command-line.ts';

/**
 * A plugin's subcommands of `home-agent` (name → help and code, each loaded when needed), declared in
 * the plugin's own folder of the CLI (`host/front/cli/<plugin>/`) and listed once in front-ends.ts,
 * which spreads them into the command table at their place in the overview.
 */
export type PluginCommands = CommandTable;

/**
 * The built-in plugins' commands as one table, in the order given. A name two plugins declare would
 * hide a command: refused at once, naming it (test/host/front/plugin-commands.test.ts checks the
 * front ends' own names).
 */
export function pluginCommandsOf(declared: readonly PluginCommands[]): CommandTable {
  const table: Record<string, CommandTable[string]> = {};
  for (const commands of declared)
    for (const [name, entry] of Object.entries(commands)) {
      if (name in table)
        throw new Error(`two commands are named '${name}': a plugin's command must not hide another command`);
      table[name] = entry;
    }
  return table;
}
