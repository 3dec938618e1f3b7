// Pure (zod only): the renderer bundles the API contract and the settings table, which spread these in.
import { z } from 'zod';
import { wholeNumber } from '../../../devices/links/way-in-setting.ts';
import { pluginSetting } from '../plugin-setting.ts';

/** How long a call from an MCP client waits for a person's answer while mcpApprovalWaitMs is unset. */
const MCP_APPROVAL_WAIT_DEFAULT_MS = 60_000;

/** The setting of the MCP server Home Agent is to its clients (`serve --mcp`, `home-agent mcp`). */
export const mcpServeSettings = {
  mcpApprovalWaitMs: pluginSetting({
    schema: wholeNumber({ min: 1000, max: 3_600_000, what: 'the wait for an answer to an MCP client’s call (ms)' }),
    label: 'MCP: wait for your answer (ms)',
    input: 'integer',
    help: `How long a call from an MCP client (Claude Desktop, an editor) that needs your approval waits for an answer in a window before it is refused; empty: ${MCP_APPROVAL_WAIT_DEFAULT_MS.toLocaleString('en')} (${MCP_APPROVAL_WAIT_DEFAULT_MS / 60_000} minute).`,
    flag: 'mcp-approval-wait-ms',
    env: 'HOME_AGENT_MCP_APPROVAL_WAIT_MS',
    appliesAt: 'turn',
    default: MCP_APPROVAL_WAIT_DEFAULT_MS,
  }),
} as const;

/** What `app/info` adds for the MCP server, spread into its shape. */
export const mcpServeInfo = {
  /**
   * Where MCP clients reach this server (`serve --mcp`) and the credential they send (or why it cannot
   * be read); absent when it serves no MCP. Only the web token's holder, the person, is answered.
   */
  mcp: z.object({ url: z.string(), credential: z.string().optional(), problem: z.string().optional() }).optional(),
};
