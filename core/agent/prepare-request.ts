import type { ModelRequest } from '../models/model-adapter.ts';
import type { ConversationStore, RequestParts } from './conversation-store.ts';
import type { AssembledTurn } from './assemble-turn.ts';
import type { ContextBudget } from '../context/context-keeper.ts';
import { fitHistory } from '../context/fit-history.ts';
import { DEFAULT_BYTES_PER_TOKEN, tokensOf } from '../context/request-bytes.ts';
import { utf8Length } from '../text/utf8-length.ts';
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
  contextTokens?: number;
  estimatedTokens?: number;
  omittedTurns?: number;
  shortenedResults?: number;
  omittedBytes?: number;
}

/** How the request fits the model's window, in the counts the budget uses. */
export interface RequestSize {
  /** The bytes of the request as counted (system prompt, tool declarations, the messages sent). */
  sentBytes: number;
  /** The system prompt's and the tool declarations' bytes. */
  systemBytes: number;
  toolsBytes: number;
  /** The current turn's bytes (the person's message and every step since). */
  currentTurnBytes: number;
  estimatedTokens: number;
  /** The system prompt, the tools and the current turn alone are over the budget: the request was not built. */
  tooLarge: boolean;
}

// A turn's prompt and tools are fixed when it starts: hashed and stored once per turn, not per step.
const partsOfTurn = new WeakMap<
  AssembledTurn,
  RequestParts & { tools: ModelRequest['tools']; systemBytes: number; toolsBytes: number }
>();
const recordedTurns = new WeakSet<AssembledTurn>();

/**
 * Builds one step's model request and the header that records it: the turn's prompt and tools
 * (stored by hash once per turn, so `verify` can rebuild the header) and the history read through
 * `history` (only what was stored since the last step), fitted to `budget` (core/context/fit-history.ts:
 * the current turn whole, older results shortened, then older turns left out). Without `history`,
 * the whole history is read. When the current turn alone does not fit, `size.tooLarge` says so and
 * nothing may be sent.
 */
export async function prepareRequest(options: {
  conversationId: string;
  assembled: AssembledTurn;
  store: ConversationStore;
  history?: RequestHistory;
  budget?: ContextBudget;
}): Promise<{ request: ModelRequest; header: RequestHeaderFields; size: RequestSize }> {
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
      systemBytes: utf8Length(assembled.system),
      toolsBytes: utf8Length(toolsJson),
    };
    partsOfTurn.set(assembled, parts);
  }
  if (!recordedTurns.has(assembled)) {
    const { system, systemPromptHash, toolsJson, toolsHash } = parts;
    store.recordRequestParts?.({ system, systemPromptHash, toolsJson, toolsHash });
    recordedTurns.add(assembled);
  }
  const reader = options.history ?? new RequestHistory(options.conversationId);
  const history = await reader.read(store);
  const { budget } = options;
  const fixedBytes = parts.systemBytes + parts.toolsBytes;
  const fitted = fitHistory({
    messages: history.messages,
    fixedBytes,
    ...(budget?.budgetBytes !== undefined ? { budgetBytes: budget.budgetBytes } : {}),
  });
  const wholeHistory = fitted.omittedTurns === 0 && fitted.shortenedResults === 0;
  const messagesHash =
    wholeHistory || fitted.tooLarge
      ? history.messagesHash
      : await reader.fittedHash(fitted.messages, fitted, history.closingCount);
  const { systemPromptHash, toolsHash } = parts;
  const sentBytes = fixedBytes + fitted.messageBytes;
  const bytesPerToken = budget?.bytesPerToken ?? DEFAULT_BYTES_PER_TOKEN;
  const estimatedTokens = tokensOf(fitted.tooLarge ? fixedBytes + fitted.currentTurnBytes : sentBytes, bytesPerToken);
  const request: ModelRequest = { system: assembled.system, messages: fitted.messages, tools: parts.tools };
  if (budget?.contextLength !== undefined) request.contextLength = budget.contextLength;
  const header: RequestHeaderFields = {
    tools: parts.tools.map((tool) => tool.name),
    systemPromptHash,
    requestHash: await requestHashOf({ systemPromptHash, toolsHash, messagesHash }),
    toolsHash,
    messagesHash,
    messageSeq: history.messageSeq,
  };
  if (budget?.windowTokens !== undefined) header.contextTokens = budget.windowTokens;
  if (budget !== undefined) header.estimatedTokens = estimatedTokens;
  // Recorded whatever the budget: `verify` rebuilds the messages sent from them.
  if (fitted.omittedTurns > 0) header.omittedTurns = fitted.omittedTurns;
  if (fitted.shortenedResults > 0) header.shortenedResults = fitted.shortenedResults;
  if (fitted.omittedBytes > 0) header.omittedBytes = fitted.omittedBytes;
  return {
    request,
    header,
    size: {
      sentBytes,
      systemBytes: parts.systemBytes,
      toolsBytes: parts.toolsBytes,
      currentTurnBytes: fitted.currentTurnBytes,
      estimatedTokens,
      tooLarge: fitted.tooLarge,
    },
  };
}
