import { createHash } from 'node:crypto';

/** The longest tool name a model provider accepts (OpenAI and Anthropic: 64; Gemini agrees). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** How many hex characters of the hash end a name that was cut. */
const HASH_LENGTH = 6;

/**
 * The name a server's tool is offered under: `mcp__SERVER__TOOL`, every character outside
 * `[A-Za-z0-9_-]` made `_`. A name over 64 characters keeps its first 57, then `_` and the first six
 * hex characters of the SHA-256 of the unchanged `mcp__SERVER__TOOL`, so two long names that differ
 * only past the cut (or only in replaced characters) still differ.
 */
export function mcpToolName(options: { server: string; tool: string }): string {
  const full = `mcp__${options.server}__${options.tool}`;
  const safe = full.replace(/[^A-Za-z0-9_-]/gu, '_');
  if (safe.length <= MAX_TOOL_NAME_LENGTH) return safe;
  const hash = createHash('sha256').update(full, 'utf8').digest('hex').slice(0, HASH_LENGTH);
  return `${safe.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}
