import type { ContextOverflow } from '../models/context-overflow.ts';
import { documentedContextWindow } from '../models/documented-context-window.ts';
import type { ContextLengthSetting, ModelAdapter } from '../models/model-adapter.ts';
import {
  keyText,
  windowFilterMatches,
  type ContextKey,
  type ContextMemory,
  type ForgottenWindow,
  type LearnedContext,
  type WindowFilter,
} from './context-memory.ts';
import { implausibleWindowMessage, learnedWindowFloor, MIN_LEARNED_WINDOW_TOKENS } from './learned-window-floor.ts';
import { DEFAULT_BYTES_PER_TOKEN, tokensOf } from './request-bytes.ts';

/** A measured ratio outside this range is a wrong count (a server that left cached tokens out), not a tokenizer. */
const PLAUSIBLE_BYTES_PER_TOKEN = { min: 0.5, max: 8 };

/** Where a window came from, most trusted first. */
export type ContextSource = 'setting' | 'learned' | 'server' | 'num_ctx' | 'documented';

/**
 * The settings the budget reads: `contextTokens` overrides what was found; a format that sets the
 * context length per request reads its own setting (`ModelContextInfo.contextLengthSetting`).
 */
export interface ContextSettings {
  contextTokens?: number;
  readonly [setting: string]: unknown;
}

/** What a request of one model may take, as known now. */
export interface ContextBudget {
  /** The window the request is fitted to; undefined when nothing says it (nothing is left out then). */
  windowTokens?: number;
  source?: ContextSource;
  /** Tokens kept for the reply: the request's `max_tokens`, else an eighth of the window. */
  replyTokens: number;
  bytesPerToken: number;
  /** True once a server's reported usage (or a 400's count) set the ratio. */
  calibrated: boolean;
  /** For formats that set the context length per request: the length, and the setting it comes from. */
  contextLength?: number;
  contextLengthSetting?: ContextLengthSetting;
  /** The bytes the request may take in all; undefined without a window. */
  budgetBytes?: number;
  /** When the window is a learned one: whose, so a message can say how to forget it. */
  learnedFor?: ContextKey;
}

interface ModelState {
  key: ContextKey;
  learned: LearnedContext;
  /** Set when the memory refused a write: what this process learned is kept, not read over. */
  unsaved?: true;
  lookup?: Promise<number | undefined>;
}

/** What a refusal taught: whether anything new (then sending again may help), and why a window it stated was not believed. */
export interface OverflowLesson {
  learned: boolean;
  /** The turn's error when the stated window was below the floor (core/context/learned-window-floor.ts). */
  implausible?: string;
}

/**
 * What is known of each model's context window and token size, kept per base URL and model: the
 * server's own answer (looked up once per process, at most 2 s), the documented table, what a 400
 * stated and the bytes-per-token ratio measured from reported usage (both remembered through
 * `ContextMemory`, so the next process starts from them). Pure TypeScript: the memory is the host's.
 */
export class ContextKeeper {
  private readonly states = new Map<string, ModelState>();

  constructor(
    private readonly options: {
      memory: ContextMemory;
      /** Where a failed memory write is reported (the turn goes on). */
      log?: (line: string) => void;
    },
  ) {}

  /**
   * The budget of a request to `model` now. Looks the window up the first time (unless
   * `contextTokens` is set; a format that sets the length per request still asks, since that length
   * must not exceed the model's own).
   * `contextTokens`, set by the person, wins over a learned window.
   */
  async budget(model: ModelAdapter, settings: ContextSettings, signal: AbortSignal): Promise<ContextBudget> {
    const info = model.context;
    const state = this.stateOf(model);
    // The data folder is the truth: another process may have forgotten (or learned) a window since.
    if (state.unsaved === undefined) state.learned = this.read(state.key);
    const perRequest = info?.contextLengthSetting;
    let found: number | undefined;
    let source: ContextSource | undefined;
    if (info && (settings.contextTokens === undefined || perRequest !== undefined)) {
      // Its own signal: the answer is kept for every later turn, so one turn's Stop must not make it "not said".
      state.lookup ??=
        info.lookupWindow?.(new AbortController().signal).catch(() => undefined) ?? Promise.resolve(undefined);
      found = await untilAborted(state.lookup, signal);
      if (found !== undefined) source = 'server';
    }
    let contextLength: number | undefined;
    if (perRequest !== undefined) {
      const chosen = settings[perRequest.key];
      contextLength = Math.min(
        typeof chosen === 'number' ? chosen : perRequest.default,
        found ?? Number.POSITIVE_INFINITY,
      );
      found = contextLength;
      source = 'num_ctx';
    }
    if (found === undefined && info) {
      found = documentedContextWindow(info.model);
      if (found !== undefined) source = 'documented';
    }
    if (settings.contextTokens !== undefined) {
      found = Math.min(settings.contextTokens, contextLength ?? Number.POSITIVE_INFINITY);
      source = settings.contextTokens <= (contextLength ?? Number.POSITIVE_INFINITY) ? 'setting' : 'num_ctx';
    }
    // A 400 proved the server keeps no more than this, whatever else but the person says. One under the
    // floor was kept before the floor existed: not believed.
    const learned = settings.contextTokens === undefined ? state.learned.windowTokens : undefined;
    if (learned !== undefined && learned >= MIN_LEARNED_WINDOW_TOKENS && (found === undefined || learned < found)) {
      found = learned;
      source = 'learned';
    }
    const bytesPerToken = state.learned.bytesPerToken ?? DEFAULT_BYTES_PER_TOKEN;
    const budget: ContextBudget = {
      replyTokens: 0,
      bytesPerToken,
      calibrated: state.learned.bytesPerToken !== undefined,
    };
    if (contextLength !== undefined && perRequest !== undefined) {
      budget.contextLength = contextLength;
      budget.contextLengthSetting = perRequest;
    }
    if (found === undefined || source === undefined) return budget;
    budget.windowTokens = found;
    budget.source = source;
    if (source === 'learned') budget.learnedFor = state.key;
    budget.replyTokens = Math.min(info?.maxTokens ?? Math.floor(found / 8), Math.floor(found / 2));
    budget.budgetBytes = Math.floor((found - budget.replyTokens) * bytesPerToken);
    return budget;
  }

  /**
   * Learns the ratio from the usage a server reported for a request of `sentBytes`: a smaller one
   * at once (the estimate must not run short), a larger one halfway. Implausible counts are ignored.
   */
  calibrate(model: ModelAdapter, usage: { sentBytes: number; inputTokens: number }): void {
    if (usage.inputTokens <= 0 || usage.sentBytes <= 0) return;
    const measured = usage.sentBytes / usage.inputTokens;
    if (measured < PLAUSIBLE_BYTES_PER_TOKEN.min || measured > PLAUSIBLE_BYTES_PER_TOKEN.max) return;
    const state = this.stateOf(model);
    const before = state.learned.bytesPerToken;
    const next = before === undefined || measured < before ? measured : (before + measured) / 2;
    if (before !== undefined && Math.abs(next - before) / before < 0.01) return;
    this.remember(model, { ...state.learned, bytesPerToken: next });
  }

  /**
   * Learns from a context-exceeded error for a request of `sentBytes`, of which `fixedBytes` are the
   * system prompt and tool declarations: the window it states, and the ratio from the prompt tokens
   * it counted. An error without numbers shrinks the window to three quarters of what was sent. A
   * window below the floor (the fixed part, or 1,024 tokens) teaches nothing: a stated one is
   * reported as implausible. `learned` is false when nothing new was learned (sending again cannot help).
   */
  learnOverflow(
    model: ModelAdapter,
    overflow: ContextOverflow,
    request: { sentBytes: number; fixedBytes: number },
  ): OverflowLesson {
    const { sentBytes } = request;
    const state = this.stateOf(model);
    const fixedTokens = tokensOf(request.fixedBytes, state.learned.bytesPerToken ?? DEFAULT_BYTES_PER_TOKEN);
    const floor = learnedWindowFloor(fixedTokens);
    if (overflow.limitTokens !== undefined && overflow.limitTokens < floor)
      return {
        learned: false,
        implausible: implausibleWindowMessage({ label: model.label, statedTokens: overflow.limitTokens, fixedTokens }),
      };
    const learned: LearnedContext = { ...state.learned };
    if (overflow.promptTokens !== undefined && sentBytes > 0) {
      const measured = sentBytes / overflow.promptTokens;
      if (measured >= PLAUSIBLE_BYTES_PER_TOKEN.min && measured <= PLAUSIBLE_BYTES_PER_TOKEN.max)
        learned.bytesPerToken = Math.min(measured, learned.bytesPerToken ?? measured);
    }
    if (overflow.limitTokens !== undefined) learned.windowTokens = overflow.limitTokens;
    else if (overflow.promptTokens === undefined) {
      const sentTokens = tokensOf(sentBytes, learned.bytesPerToken ?? DEFAULT_BYTES_PER_TOKEN);
      const shrunk = Math.min(learned.windowTokens ?? sentTokens, Math.floor(sentTokens * 0.75));
      if (shrunk < floor) return { learned: false };
      learned.windowTokens = shrunk;
    }
    const changed =
      learned.windowTokens !== state.learned.windowTokens || learned.bytesPerToken !== state.learned.bytesPerToken;
    if (changed) this.remember(model, learned);
    return { learned: changed };
  }

  /**
   * Forgets the learned windows `filter` matches, here and in the memory (the ratios stay), and
   * returns them: the next budget finds each model's window again.
   */
  forgetWindows(filter: WindowFilter): ForgottenWindow[] {
    const forgotten = this.options.memory.forgetWindows(filter);
    for (const state of this.states.values())
      if (windowFilterMatches(filter, state.key) && state.learned.windowTokens !== undefined) {
        const rest = { ...state.learned };
        delete rest.windowTokens;
        state.learned = rest;
      }
    return forgotten;
  }

  /**
   * After a server kept only `contextLength` tokens of a request of `sentBytes` (a silent cut), the
   * true ratio is below `sentBytes / contextLength`: the ratio goes back to the cautious default,
   * or below it to a tenth under that bound, so the next request fits.
   */
  learnCut(model: ModelAdapter, cut: { sentBytes: number; contextLength: number }): void {
    const state = this.stateOf(model);
    const bound = (cut.sentBytes / cut.contextLength) * 0.9;
    const before = state.learned.bytesPerToken ?? DEFAULT_BYTES_PER_TOKEN;
    const next = Math.max(PLAUSIBLE_BYTES_PER_TOKEN.min, Math.min(bound, DEFAULT_BYTES_PER_TOKEN, before));
    if (next < before) this.remember(model, { ...state.learned, bytesPerToken: next });
  }

  private stateOf(model: ModelAdapter): ModelState {
    const key = keyOf(model);
    const text = keyText(key);
    let state = this.states.get(text);
    if (state === undefined) {
      state = { key, learned: this.read(key) };
      this.states.set(text, state);
    }
    return state;
  }

  private read(key: ContextKey): LearnedContext {
    try {
      return this.options.memory.read(key) ?? {};
    } catch (error) {
      this.options.log?.(`could not read what was learned of ${key.model}'s context: ${(error as Error).message}`);
      return {};
    }
  }

  private remember(model: ModelAdapter, learned: LearnedContext): void {
    const key = keyOf(model);
    const state = this.stateOf(model);
    state.learned = learned;
    try {
      this.options.memory.write(key, learned);
      delete state.unsaved;
    } catch (error) {
      state.unsaved = true;
      // Kept for this process; the next one learns it again.
      this.options.log?.(`could not remember ${key.model}'s context: ${(error as Error).message}`);
    }
  }
}

/** The promise's value, or undefined as soon as `signal` aborts (the turn then ends on its own). */
function untilAborted<T>(promise: Promise<T | undefined>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

/** The memory key of a model: its base URL and name, or its label for models without a server. */
export function keyOf(model: ModelAdapter): ContextKey {
  const info = model.context;
  return info ? { baseUrl: info.baseUrl.replace(/\/+$/, ''), model: info.model } : { baseUrl: '', model: model.label };
}
