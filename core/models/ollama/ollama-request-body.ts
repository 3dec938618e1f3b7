import type { RequestBodyOptions } from '../request-body-options.ts';
import { toolResultRuns } from '../tool-result-runs.ts';

type OllamaMessage = Record<string, unknown>;

/**
 * The `/api/chat` body: the system prompt as a `system` message, an assistant reply with all its
 * `tool_calls` (arguments as objects), each result as a `tool` message naming its tool and call
 * id. Tool messages take no images, so a run's media follow it as one user message's `images`.
 * `options.num_ctx` is the request's `contextLength` (Ollama cuts what does not fit from the front).
 */
export function ollamaRequestBody(options: RequestBodyOptions): Record<string, unknown> {
  const { request } = options;
  const messages: OllamaMessage[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  for (const item of toolResultRuns(request.messages)) {
    if (item.role === 'user') messages.push({ role: 'user', content: item.text });
    else if (item.role === 'assistant') {
      const message: OllamaMessage = { role: 'assistant', content: item.text };
      if (item.toolCalls.length > 0) {
        message.tool_calls = item.toolCalls.map((call) => ({
          id: call.id,
          function: { name: call.name, arguments: call.args },
        }));
      }
      messages.push(message);
    } else {
      const labels: string[] = [];
      const images: string[] = [];
      for (const result of item.results) {
        messages.push({
          role: 'tool',
          tool_name: result.toolName,
          tool_call_id: result.toolCallId,
          content: result.content,
        });
        for (const media of result.media ?? []) {
          labels.push(`${result.toolCallId} (${result.toolName}, ${media.mimeType})`);
          images.push(media.data);
        }
      }
      if (images.length > 0)
        messages.push({ role: 'user', content: `Media from tool calls, in order: ${labels.join(', ')}`, images });
    }
  }
  const body: Record<string, unknown> = { model: options.model, messages, stream: true };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  const settings: Record<string, number> = {};
  if (options.maxTokens !== undefined) settings.num_predict = options.maxTokens;
  if (request.contextLength !== undefined) settings.num_ctx = request.contextLength;
  if (Object.keys(settings).length > 0) body.options = settings;
  return body;
}
