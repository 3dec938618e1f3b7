// Pure (zod only): the renderer bundles the settings table, which spreads these rows in.
import { wholeNumber, type SettingDeclaration } from '../../../devices/links/way-in-setting.ts';

/** How long a server Home Agent uses may take to start before it is restarted: npx may download it first. */
const MCP_START_TIMEOUT_DEFAULT_MS = 60_000;

/** The settings of the MCP servers Home Agent uses (mcp.json), spread into the host's settings table. */
export const mcpClientSettings: {
  mcpStartTimeoutMs: SettingDeclaration<ReturnType<typeof wholeNumber>> & { default: number };
} = {
  mcpStartTimeoutMs: {
    schema: wholeNumber({ min: 1_000, max: 600_000, what: 'the MCP server start timeout' }),
    label: 'MCP server start timeout (ms)',
    input: 'integer',
    help: 'How long an MCP server from mcp.json may take to start and list its tools before it is restarted; a first start through npx may download the server. Empty: 60,000 (1 minute).',
    flag: 'mcp-start-timeout-ms',
    env: 'HOME_AGENT_MCP_START_TIMEOUT_MS',
    appliesAt: 'start',
    default: MCP_START_TIMEOUT_DEFAULT_MS,
  },
};
