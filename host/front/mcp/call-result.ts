import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallRun } from '../../../core/tools/tool-call-run.ts';
import { safeLines } from '../../../core/text/safe-text.ts';
import { renderOutcomeForModel } from '../../../core/tools/tool-result.ts';
import { isRecord } from '../../../core/text/is-record.ts';

/**
 * The most bytes one call's answer to an MCP client may hold (its JSON: text, structured result,
 * media as base64). The model's own reply is bounded the same (DEFAULT_REPLY_MAX_BYTES); a result
 * past it is left out, and the client is told so and how the call ended.
 */
export const MAX_RESULT_BYTES = 1024 * 1024;

/**
 * What an MCP client is answered for one call: the text the agent's own model would read (a
 * failure's reason, detail and hint, and for an interrupted call what is known of its effect), the
 * result object as `structuredContent` too, and images or sounds the call attached. A failure is
 * `isError: true`, so the client's model sees it and can recover. The text passes the one text rule
 * (a device's words are read, not obeyed, wherever the client shows them), and the whole answer is
 * at most MAX_RESULT_BYTES.
 */
export function callResultOf(
  name: string,
  run: Pick<ToolCallRun, 'outcome' | 'callOutcome' | 'media'>,
): CallToolResult {
  const text = safeLines(renderOutcomeForModel(run.outcome, run.callOutcome));
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  for (const media of run.media) {
    if (media.mimeType.startsWith('image/'))
      content.push({ type: 'image', data: media.data, mimeType: media.mimeType });
    else if (media.mimeType.startsWith('audio/'))
      content.push({ type: 'audio', data: media.data, mimeType: media.mimeType });
    else content.push({ type: 'text', text: `(an attachment of type ${media.mimeType} is not sent over MCP)` });
  }
  const value = run.outcome.ok ? run.outcome.value : undefined;
  const structured = isRecord(value);
  const result: CallToolResult = {
    content,
    ...(run.outcome.ok ? {} : { isError: true }),
    ...(structured ? { structuredContent: value } : {}),
  };
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (bytes <= MAX_RESULT_BYTES) return result;
  // Said as it is: the call ran (or failed) all the same; only its answer is too large to carry.
  const ended = run.outcome.ok ? 'ran' : `failed (${run.outcome.error.reason})`;
  return {
    content: [
      {
        type: 'text',
        text: `${name} ${ended}, outcome ${run.callOutcome}, but its answer was ${bytes} bytes, more than the ${MAX_RESULT_BYTES} one MCP answer may hold, so it is left out. Do not call it again to see it: ask for less (one device, a shorter list).`,
      },
    ],
    ...(run.outcome.ok ? {} : { isError: true }),
  };
}
