import type { PluginFlag } from '../../config/plugin-flag.ts';
import { MCP_CONFIG_FLAG, MCP_DATA_FILES } from '../mcp/mcp-config-flag.ts';

/** The flags plugins add to the commands that start a host, in the order help lists them. */
export const BUILTIN_PLUGIN_FLAGS: readonly PluginFlag[] = [MCP_CONFIG_FLAG];

/** The files plugins keep in the data folder (moved with the home when a data folder is adopted). */
export const BUILTIN_PLUGIN_DATA_FILES: readonly string[] = [...MCP_DATA_FILES];
