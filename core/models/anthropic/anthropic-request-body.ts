import type { ToolCallRecord } from '../conversation-message.ts';
import type { RequestBodyOptions } from '../request-body-options.ts';
import { sameRoleTurns } from '../same-role-turns.ts';
import { toolResultRuns } from '../tool-result-runs.ts';

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * The `/v1/messages` body: the system prompt in `system`, an assistant reply as text plus one
 * `tool_use` block per call, a reply's results as `tool_result` blocks (paired by `tool_use_id`,
 * each with its own images) in one user message. Consecutive user turns are merged, since the
 * format alternates roles.
 */
export function anthropicRequestBody(options: RequestBodyOptions): Record<string, unknown> {
  const { request } = options;
  const { turns, add } = sameRoleTurns<AnthropicMessage['role'], Block>();
  for (const item of toolResultRuns(request.messages)) {
    if (item.role === 'user') add('user', item.text === '' ? [] : [{ type: 'text', text: item.text }]);
    else if (item.role === 'assistant') add('assistant', assistantBlocks(item.text, item.toolCalls));
    else {
      add(
        'user',
        item.results.map((result) => ({
          type: 'tool_result',
          tool_use_id: result.toolCallId,
          content: [
            { type: 'text', text: result.content === '' ? '(empty)' : result.content },
            ...(result.media ?? []).map((media) => ({
              type: 'image',
              source: { type: 'base64', media_type: media.mimeType, data: media.data },
            })),
          ],
          is_error: result.isError,
        })),
      );
    }
  }
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: turns.map(({ role, parts }): AnthropicMessage => ({ role, content: parts })),
    stream: true,
  };
  if (request.system !== '') body.system = request.system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }));
  }
  return body;
}

function assistantBlocks(text: string, calls: ToolCallRecord[]): Block[] {
  const blocks: Block[] = [];
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of calls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
  return blocks;
}
