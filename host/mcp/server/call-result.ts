import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallRun } from '../../../core/batch/run-tool-call.ts';
import { renderOutcomeForModel } from '../../../core/tools/tool-result.ts';

/**
 * What an MCP client is answered for one call: the text the agent's own model would read (a
 * failure's reason, detail and hint, and for an interrupted call what is known of its effect), the
 * result object as `structuredContent` too, and images or sounds the call attached. A failure is
 * `isError: true`, so the client's model sees it and can recover.
 */
export function callResultOf(run: Pick<ToolCallRun, 'outcome' | 'callOutcome' | 'media'>): CallToolResult {
  const text = renderOutcomeForModel(run.outcome, run.callOutcome);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  for (const media of run.media) {
    if (media.mimeType.startsWith('image/'))
      content.push({ type: 'image', data: media.data, mimeType: media.mimeType });
    else if (media.mimeType.startsWith('audio/'))
      content.push({ type: 'audio', data: media.data, mimeType: media.mimeType });
    else content.push({ type: 'text', text: `(an attachment of type ${media.mimeType} is not sent over MCP)` });
  }
  if (!run.outcome.ok) return { content, isError: true };
  const value = run.outcome.value;
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  return { content, ...(structured ? { structuredContent: value as Record<string, unknown> } : {}) };
}
