// Pure (zod only): the renderer bundles the settings table, which spreads these rows in.
import { wholeNumber } from '../../../devices/links/way-in-setting.ts';
import { pluginSetting } from '../plugin-setting.ts';

/** The default of `mcpMaxResultBytes`: 256 KiB, like a sequence run's results. */
const MCP_MAX_RESULT_BYTES = 262_144;

/** How long a server Home Agent uses may take to start before it is restarted: npx may download it first. */
const MCP_START_TIMEOUT_DEFAULT_MS = 60_000;

/** The settings of the MCP servers Home Agent uses (mcp.json), spread into the host's settings table. */
export const mcpClientSettings = {
  mcpMaxResultBytes: pluginSetting({
    schema: wholeNumber({ min: 1024, max: 8_388_608, what: 'the size of one MCP tool result (bytes)' }),
    label: 'MCP result size limit (bytes)',
    input: 'integer',
    help: `How much one MCP tool call may answer (as JSON); a larger answer fails the call. Empty: ${MCP_MAX_RESULT_BYTES.toLocaleString('en-US')} (${MCP_MAX_RESULT_BYTES / 1024} KiB).`,
    flag: 'mcp-max-result-bytes',
    env: 'HOME_AGENT_MCP_MAX_RESULT_BYTES',
    appliesAt: 'turn',
    default: MCP_MAX_RESULT_BYTES,
  }),
  mcpStartTimeoutMs: pluginSetting({
    schema: wholeNumber({ min: 1_000, max: 600_000, what: 'the MCP server start timeout' }),
    label: 'MCP server start timeout (ms)',
    input: 'integer',
    help: `How long an MCP server from mcp.json may take to start and list its tools before it is restarted; a first start through npx may download the server. Empty: ${MCP_START_TIMEOUT_DEFAULT_MS.toLocaleString('en-US')} (${MCP_START_TIMEOUT_DEFAULT_MS / 60_000} minute).`,
    flag: 'mcp-start-timeout-ms',
    env: 'HOME_AGENT_MCP_START_TIMEOUT_MS',
    appliesAt: 'start',
    default: MCP_START_TIMEOUT_DEFAULT_MS,
  }),
} as const;
