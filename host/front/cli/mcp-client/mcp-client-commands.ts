// The MCP-client plugin's commands of `home-agent`, declared once: front-ends.ts spreads the built-in
// plugins' commands into its table. Help and code are loaded only when used (help loads no MCP SDK).
import type { PluginCommands } from '../plugin-commands.ts';

/** `home-agent plugins login|logout mcp-NAME`: signing in to a remote MCP server (OAuth 2.1) from the terminal. */
export const MCP_CLIENT_COMMANDS: PluginCommands = {
  plugins: {
    help: async () => (await import('./plugins-help.ts')).PLUGINS_HELP,
    run: async () => (await import('./plugins-command.ts')).runPluginsCommand,
  },
};
