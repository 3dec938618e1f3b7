// Pure (zod only): the renderer bundles the API contract, which spreads these fields into `plugins/list`.
import { z } from 'zod';

/** What `plugins/list` shows of an MCP server's plugin besides the common parts (absent for other plugins). */
export const mcpPluginStatusFields = {
  /** An MCP server's: starting, usable or down (absent while its plugin is disabled, and for other plugins). */
  status: z.enum(['connecting', 'ready', 'failed', 'sign-in']).optional(),
  /** An MCP server's that needs its person to sign in (status `sign-in`): the authorization address to open. */
  signInUrl: z.string().optional(),
  /** The sign-in needed is a renewal ("Sign in again"): a refresh failed. */
  signInAgain: z.boolean().optional(),
  /** An MCP server's: whether the person trusts it (its read-only tools then run unasked, in parallel). */
  trusted: z.boolean().optional(),
  /** Why it is down. */
  reason: z.string().optional(),
  /** The end of an MCP server's stderr (secrets redacted). */
  stderr: z.string().optional(),
  /** What the person should know: a secret written into the config, tools left out or cut, tools not covered by trust. */
  warnings: z.array(z.string()).optional(),
  /** An MCP server's: sha256 of its tools as listed now; `plugins/set-trusted` takes it back to trust only those. */
  declarationHash: z.string().optional(),
};

/** What `plugins/set-trusted` answers (400) for a plugin that is not an MCP server's. */
export function notAnMcpServer(name: string): string {
  return `${name} is not an MCP server's plugin: only MCP servers are trusted or not`;
}
