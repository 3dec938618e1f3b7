import type { PluginFlag } from '../../config/plugin-flag.ts';
import { MCP_CONFIG_FILE_NAME } from './mcp-config.ts';

/** `--mcp-config FILE` of `ask`, `serve` and `mcp`: the MCP servers of this run, in place of the data folder's mcp.json. */
export const MCP_CONFIG_FLAG: PluginFlag = {
  name: 'mcp-config',
  help: {
    flag: '--mcp-config FILE',
    text: 'The MCP servers to use for this run, in place of mcp.json in the data folder: {"mcpServers": {"NAME": {"command", "args", "env"} | {"url", "headers"}}} (see docs/mcp.md).',
  },
  blank: '--mcp-config needs the path of an MCP config file',
  read: (value) => ({ mcpConfigFile: value }),
};

/** The files of the data folder this plugin keeps: its config. */
export const MCP_DATA_FILES: readonly string[] = [MCP_CONFIG_FILE_NAME];
