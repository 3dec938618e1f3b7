import type { TurnScope } from '../events/turn-scope.ts';
import type { ContextLengthSetting, ModelAdapter, ModelRequest } from '../models/model-adapter.ts';
import { ModelError } from '../models/model-error.ts';
import { parseContextOverflow } from '../models/context-overflow.ts';
import type { ContextBudget, ContextKeeper } from '../context/context-keeper.ts';
import { contextTooSmallMessage, formatTokens } from '../context/context-too-small.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { AgentSettings, AssembledTurn } from './assemble-turn.ts';
import { prepareRequest } from './prepare-request.ts';
import type { RequestHistory } from './request-history.ts';
import type { StreamedReply } from './stream-reply.ts';

/**
 * One step's request and its reply, within the model's context window: the request is fitted to
 * the budget `context` knows, its header recorded, and the reply streamed through `stream`. A
 * context-exceeded refusal (any provider's wording) teaches the window and the token size, and the
 * request is fitted again and sent once more; the usage the server reports calibrates the ratio; a
 * request the server cut (its input tokens reached the context length the request set) becomes a
 * `context/warning`. When the
 * turn's own part cannot fit, nothing is sent and the error says why and what to do.
 */
export async function requestReply(options: {
  scope: TurnScope;
  step: number;
  model: ModelAdapter;
  assembled: AssembledTurn;
  settings: AgentSettings;
  store: ConversationStore;
  history?: RequestHistory;
  context?: ContextKeeper;
  stream: (request: ModelRequest) => Promise<StreamedReply>;
}): Promise<{ ok: true; reply: StreamedReply } | { ok: false; error: string }> {
  const { scope, step, model, context } = options;
  const { signal, emit } = scope;
  let budget: ContextBudget | undefined = await context?.budget(model, options.settings, signal);
  for (let attempt = 1; ; attempt += 1) {
    const prepared = await prepareRequest({
      conversationId: scope.conversationId,
      assembled: options.assembled,
      store: options.store,
      ...(options.history ? { history: options.history } : {}),
      ...(budget ? { budget } : {}),
    });
    const { size } = prepared;
    // Only a known window makes a request too large, so the budget has one here.
    if (size.tooLarge)
      return {
        ok: false,
        error: contextTooSmallMessage({
          label: model.label,
          budget: { ...budget!, windowTokens: budget!.windowTokens!, source: budget!.source! },
          systemBytes: size.systemBytes,
          toolsBytes: size.toolsBytes,
          currentTurnBytes: size.currentTurnBytes,
        }),
      };
    emit({ type: 'request/header', step, ...prepared.header });
    const reply = await options.stream(prepared.request);
    if (context && budget && attempt === 1 && isContextRefusal(reply) && !signal.aborted) {
      const overflow = parseContextOverflow((reply.error as ModelError).message) ?? {};
      const fixedBytes = size.systemBytes + size.toolsBytes;
      const lesson = context.learnOverflow(model, overflow, { sentBytes: size.sentBytes, fixedBytes });
      if (lesson.learned) {
        budget = await context.budget(model, options.settings, signal);
        continue;
      }
      if (lesson.implausible !== undefined) return { ok: false, error: lesson.implausible };
    }
    const inputTokens = reply.usage?.inputTokens;
    if (context && budget && inputTokens !== undefined) {
      const length = budget.contextLength;
      const setting = budget.contextLengthSetting;
      if (length !== undefined && setting !== undefined && inputTokens >= length) {
        context.learnCut(model, { sentBytes: size.sentBytes, contextLength: length });
        emit({ type: 'context/warning', step, message: silentCutMessage(model.label, length, setting) });
      } else context.calibrate(model, { sentBytes: size.sentBytes, inputTokens });
    }
    return { ok: true, reply };
  }
}

/** A refusal before any byte of the reply, for the request's length. */
function isContextRefusal(reply: StreamedReply): boolean {
  return (
    ModelError.isInstance(reply.error) &&
    reply.error.kind === 'context_exceeded' &&
    reply.text === '' &&
    reply.calls.length === 0
  );
}

/** A server that sets the length per request cut it from the front: said with the setting that raises it. */
function silentCutMessage(label: string, contextLength: number, setting: ContextLengthSetting): string {
  return (
    `${label} kept only ${formatTokens(contextLength)} tokens of this request (${setting.name}) and cut the rest ` +
    `from the front without a word — the system prompt and the tool declarations first — so this reply may have been ` +
    `made without them. Raise the setting ${setting.key} (--${setting.flag}; ${formatTokens(contextLength)} now) if ` +
    `the model and the machine's memory allow it; Home Agent now counts this model's tokens as longer.`
  );
}
