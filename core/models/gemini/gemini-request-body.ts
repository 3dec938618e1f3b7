import type { ToolCallRecord } from '../conversation-message.ts';
import type { RequestBodyOptions } from '../request-body-options.ts';
import { sameRoleTurns } from '../same-role-turns.ts';
import { resultObject } from '../result-object.ts';
import { toolResultRuns } from '../tool-result-runs.ts';
import { geminiParameters } from './gemini-parameters.ts';
import { isSyntheticGeminiCallId } from './gemini-stream-parts.ts';

type Part = Record<string, unknown>;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

/**
 * Gemini 3 checks a thought signature on the calls it made; history kept without one carries the
 * value Google documents for that case.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * The `streamGenerateContent` body: the system prompt in `systemInstruction`, an assistant reply
 * as a `model` content with one `functionCall` part per call, a reply's results as one `user`
 * content of `functionResponse` parts, each followed by its media as `inlineData`. Ids the
 * adapter made up are not sent back.
 */
export function geminiRequestBody(options: Omit<RequestBodyOptions, 'model'>): Record<string, unknown> {
  const { request } = options;
  const { turns: contents, add } = sameRoleTurns<Content['role'], Part>();
  for (const item of toolResultRuns(request.messages)) {
    if (item.role === 'user') add('user', item.text === '' ? [] : [{ text: item.text }]);
    else if (item.role === 'assistant') add('model', modelParts(item.text, item.toolCalls));
    else {
      add(
        'user',
        item.results.flatMap((result) => [
          { functionResponse: withId({ name: result.toolName, response: resultObject(result) }, result.toolCallId) },
          ...(result.media ?? []).map((media) => ({ inlineData: { mimeType: media.mimeType, data: media.data } })),
        ]),
      );
    }
  }
  const body: Record<string, unknown> = { contents };
  if (request.system !== '') body.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => {
          const declaration: Record<string, unknown> = { name: tool.name, description: tool.description };
          const parameters = geminiParameters(tool.parameters);
          if (parameters) declaration.parameters = parameters;
          return declaration;
        }),
      },
    ];
  }
  if (options.maxTokens !== undefined) body.generationConfig = { maxOutputTokens: options.maxTokens };
  return body;
}

function modelParts(text: string, calls: ToolCallRecord[]): Part[] {
  const parts: Part[] = [];
  if (text !== '') parts.push({ text });
  calls.forEach((call, position) => {
    const part: Part = { functionCall: withId({ name: call.name, args: call.args }, call.id) };
    // Only the first call of a reply carries the signature, as Gemini sends it.
    if (position === 0) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
    parts.push(part);
  });
  return parts;
}

function withId(value: Record<string, unknown>, id: string): Record<string, unknown> {
  return isSyntheticGeminiCallId(id) ? value : { ...value, id };
}
