import type { ModelRequest } from '../models/model-adapter.ts';
import type { ConversationStore, RequestParts } from './conversation-store.ts';
import type { AssembledTurn } from './assemble-turn.ts';
import { sha256Hex } from './hash.ts';
import { requestHashOf } from './request-hash.ts';
import { RequestHistory } from './request-history.ts';

/** What a step's `request/header` records of its request (see `requestHashOf` for what each hash covers). */
export interface RequestHeaderFields {
  tools: string[];
  systemPromptHash: string;
  requestHash: string;
  toolsHash: string;
  messagesHash: string;
  messageSeq: number;
}

// A turn's prompt and tools are fixed when it starts: hashed and stored once per turn, not per step.
const partsOfTurn = new WeakMap<AssembledTurn, RequestParts & { tools: ModelRequest['tools'] }>();
const recordedTurns = new WeakSet<AssembledTurn>();

/**
 * Builds one step's model request and the header that records it: the turn's prompt and tools
 * (stored by hash once per turn, so `verify` can rebuild the header) and the history read through
 * `history` (only what was stored since the last step). Without `history`, the whole history is read.
 */
export async function prepareRequest(options: {
  conversationId: string;
  assembled: AssembledTurn;
  store: ConversationStore;
  history?: RequestHistory;
}): Promise<{ request: ModelRequest; header: RequestHeaderFields }> {
  const { assembled, store } = options;
  let parts = partsOfTurn.get(assembled);
  if (parts === undefined) {
    const tools = assembled.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }));
    const toolsJson = JSON.stringify(tools);
    parts = {
      tools,
      system: assembled.system,
      systemPromptHash: await sha256Hex(assembled.system),
      toolsJson,
      toolsHash: await sha256Hex(toolsJson),
    };
    partsOfTurn.set(assembled, parts);
  }
  if (!recordedTurns.has(assembled)) {
    const { system, systemPromptHash, toolsJson, toolsHash } = parts;
    store.recordRequestParts?.({ system, systemPromptHash, toolsJson, toolsHash });
    recordedTurns.add(assembled);
  }
  const history = await (options.history ?? new RequestHistory(options.conversationId)).read(store);
  const { systemPromptHash, toolsHash } = parts;
  return {
    request: { system: assembled.system, messages: history.messages, tools: parts.tools },
    header: {
      tools: parts.tools.map((tool) => tool.name),
      systemPromptHash,
      requestHash: await requestHashOf({ systemPromptHash, toolsHash, messagesHash: history.messagesHash }),
      toolsHash,
      messagesHash: history.messagesHash,
      messageSeq: history.messageSeq,
    },
  };
}
