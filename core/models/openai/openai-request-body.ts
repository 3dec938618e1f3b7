import type { RequestBodyOptions } from '../request-body-options.ts';
import { mediaDataUrl } from '../media-data-url.ts';
import { toolResultRuns } from '../tool-result-runs.ts';

type OpenAiMessage = Record<string, unknown>;

/**
 * The `/chat/completions` body for a request: system prompt first, the assistant message with all
 * of a reply's `tool_calls`, each result as a `tool` message with its `tool_call_id`. Tool messages
 * cannot carry images, so a run's media follow it in one user message, labelled by call id.
 * `parallel_tool_calls: true` goes with the tools unless `parallelToolCalls` is false (models that
 * refuse the parameter answer 400 to it, whatever its value). `stream_options.include_usage` asks
 * for the usage (it calibrates the context budget) unless `includeUsage` is false.
 */
export function openAiRequestBody(
  options: RequestBodyOptions & { parallelToolCalls?: boolean; includeUsage?: boolean },
): Record<string, unknown> {
  const { request } = options;
  const messages: OpenAiMessage[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const item of toolResultRuns(request.messages)) {
    if (item.role === 'user') messages.push({ role: 'user', content: item.text });
    else if (item.role === 'assistant') messages.push(assistantMessage(item));
    else {
      const mediaParts: Record<string, unknown>[] = [];
      for (const result of item.results) {
        messages.push({ role: 'tool', tool_call_id: result.toolCallId, content: result.content });
        for (const media of result.media ?? []) {
          mediaParts.push({ type: 'text', text: `Media from tool call ${result.toolCallId} (${result.toolName}):` });
          mediaParts.push({ type: 'image_url', image_url: { url: mediaDataUrl(media) } });
        }
      }
      if (mediaParts.length > 0) messages.push({ role: 'user', content: mediaParts });
    }
  }
  const body: Record<string, unknown> = { model: options.model, messages, stream: true };
  if (options.includeUsage !== false) body.stream_options = { include_usage: true };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    if (options.parallelToolCalls !== false) body.parallel_tool_calls = true;
  }
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  return body;
}

function assistantMessage(message: {
  text: string;
  toolCalls: { id: string; name: string; args: Record<string, unknown>; argumentsText?: string }[];
}): OpenAiMessage {
  const content = message.text === '' && message.toolCalls.length > 0 ? null : message.text;
  const result: OpenAiMessage = { role: 'assistant', content };
  if (message.toolCalls.length > 0) {
    result.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText ?? JSON.stringify(call.args) },
    }));
  }
  return result;
}
