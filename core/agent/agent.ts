import type { AgentEvent, AgentEventInput, TurnEndReason } from '../events/agent-event.ts';
import type { AgentEvents } from '../events/agent-events.ts';
import type { TurnScope } from '../events/turn-scope.ts';
import type { ModelAdapter } from '../models/model-adapter.ts';
import type { PluginRegistry } from '../plugins/plugin-registry.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { AfterToolHook, ApprovalGate } from '../batch/run-tool-call.ts';
import type { PromptAssembleListener } from '../prompt/assemble-prompt.ts';
import { runStep } from './run-step.ts';
import { DEFAULT_MAX_STEPS } from './turn-defaults.ts';
import { assembleTurn, type AgentSettings, type AssembledTurn } from './assemble-turn.ts';
import { readBackAfterStop, UnknownCallTracker } from './read-back-after-stop.ts';
import { titleFromMessage } from './title-from-message.ts';
import { RequestHistories } from './request-history.ts';
import { ContextKeeper } from '../context/context-keeper.ts';
import { InMemoryContextMemory } from '../context/context-memory.ts';
import type { ArgumentBounds } from '../tools/argument-bounds.ts';

export type { AgentSettings } from './assemble-turn.ts';

export interface AgentOptions {
  /**
   * The model of the next turn, asked once when each turn starts (so a settings change applies to
   * the next turn). A throw ends that turn with its message as the error.
   */
  model: () => ModelAdapter | Promise<ModelAdapter>;
  plugins: PluginRegistry;
  store: ConversationStore;
  /** Where the turn's events go: journaled, then broadcast (shared with the approval gate). */
  events: AgentEvents;
  settings: () => AgentSettings;
  approve?: ApprovalGate;
  afterTool?: AfterToolHook[];
  promptListeners?: PromptAssembleListener[];
  newId?: () => string;
  /** How long the read-back after a Stop may take in all (default 10 s). */
  readBackTimeoutMs?: number;
  /** What is known of models' context windows (the host remembers it in the data folder); default: this process only. */
  context?: ContextKeeper;
  /**
   * The size bound of call arguments (the host's `maxToolArgumentBytes`), read at each step; give
   * the events' bus the same. The depth bound always applies.
   */
  argumentBounds?: () => ArgumentBounds;
}

export interface TurnOutcome {
  turnId: string;
  reason: TurnEndReason;
  error?: string;
}

/** Thrown by `startTurn` when the conversation already has a turn running. */
export class ConversationBusyError extends Error {
  override readonly name = 'ConversationBusyError';
}

/**
 * The agent loop: one turn is steps of (request → reply → batch) until the model stops, the step
 * limit, an error or the user's abort. Every `turn/start` gets exactly one `turn/end`, every
 * `step/start` one `step/end`, every `batch/start` one `batch/end`, on every path.
 */
export class Agent {
  private readonly running = new Map<string, { controller: AbortController; readBack: boolean }>();
  private readonly turns = new Set<Promise<TurnOutcome>>();
  private readonly newId: () => string;
  private readonly histories = new RequestHistories();
  private readonly context: ContextKeeper;

  constructor(private readonly options: AgentOptions) {
    this.newId = options.newId ?? (() => crypto.randomUUID());
    this.context = options.context ?? new ContextKeeper({ memory: new InMemoryContextMemory() });
  }

  /** Resolves when no turn is running (after an abort, before closing the store). */
  async whenIdle(): Promise<void> {
    while (this.turns.size > 0) await Promise.allSettled([...this.turns]);
  }

  isBusy(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  /**
   * Aborts the running turn of a conversation; every running call is answered `aborted`. Devices
   * whose calls may have acted are then read again before the turn ends, unless `readBack` is
   * false (the host is shutting down and will not wait for devices).
   */
  abort(conversationId: string, options: { readBack?: boolean } = {}): boolean {
    const running = this.running.get(conversationId);
    if (!running) return false;
    if (options.readBack === false) running.readBack = false;
    running.controller.abort(new Error('aborted by the user'));
    return true;
  }

  /** Aborts every running turn without reading devices back (shutdown). */
  abortAll(): void {
    for (const conversationId of [...this.running.keys()]) this.abort(conversationId, { readBack: false });
  }

  /**
   * Starts a turn and returns its id at once with the promise of its end (front ends answer the
   * request with the id and follow the events).
   */
  startTurn(options: {
    conversationId: string;
    text: string;
    signal?: AbortSignal;
    /** This turn's model instead of the agent's (a command line's per-run model, through the running host). */
    model?: () => ModelAdapter | Promise<ModelAdapter>;
  }): {
    turnId: string;
    done: Promise<TurnOutcome>;
  } {
    if (this.running.has(options.conversationId)) {
      throw new ConversationBusyError('this conversation already has a turn running: wait for it to end or stop it');
    }
    const controller = new AbortController();
    if (options.signal) {
      if (options.signal.aborted) controller.abort(options.signal.reason);
      else options.signal.addEventListener('abort', () => controller.abort(options.signal?.reason), { once: true });
    }
    const running = { controller, readBack: true };
    this.running.set(options.conversationId, running);
    const turnId = this.newId();
    const done = this.runTurnBody({
      conversationId: options.conversationId,
      text: options.text,
      turnId,
      signal: controller.signal,
      readBack: () => running.readBack,
      ...(options.model ? { model: options.model } : {}),
    }).finally(() => {
      this.running.delete(options.conversationId);
      this.turns.delete(done);
    });
    this.turns.add(done);
    return { turnId, done };
  }

  /** Runs one whole turn. */
  runTurn(options: Parameters<Agent['startTurn']>[0]): Promise<TurnOutcome> {
    return this.startTurn(options).done;
  }

  private async chooseModel(
    model: () => ModelAdapter | Promise<ModelAdapter> = this.options.model,
  ): Promise<{ ok: true; model: ModelAdapter } | { ok: false; error: string }> {
    try {
      return { ok: true, model: await model() };
    } catch (error) {
      return { ok: false, error: (error as Error)?.message ?? String(error) };
    }
  }

  private async runTurnBody(options: {
    conversationId: string;
    text: string;
    turnId: string;
    signal: AbortSignal;
    readBack: () => boolean;
    model?: () => ModelAdapter | Promise<ModelAdapter>;
  }): Promise<TurnOutcome> {
    const { conversationId, turnId } = options;
    const { store } = this.options;
    // A journal write that fails stops the turn: nothing may happen in the home that is not recorded.
    const stop = new AbortController();
    const signal = AbortSignal.any([options.signal, stop.signal]);
    let journalFailure: string | undefined;
    const unknownCalls = new UnknownCallTracker();
    const emit = (input: AgentEventInput): boolean => {
      unknownCalls.observe(input);
      const event = { ...input, at: Date.now(), conversationId, turnId } as AgentEvent;
      const journaled = this.options.events.emit(event);
      if (journaled || journalFailure !== undefined) return journaled;
      journalFailure = `the journal could not record ${event.type}, so the turn was stopped (nothing may happen in the home that is not recorded); check the disk of the data folder`;
      stop.abort(new Error(journalFailure));
      return false;
    };
    const scope: TurnScope = { conversationId, turnId, signal, emit };
    const chosen = await this.chooseModel(options.model);
    emit({ type: 'turn/start', text: options.text, model: chosen.ok ? chosen.model.label : 'no model' });
    let assembled: AssembledTurn | undefined;
    const end = async (reason: TurnEndReason, error?: string): Promise<TurnOutcome> => {
      // After a Stop, the devices a call may have acted on are read again: the person must not
      // be told nothing happened when a relay may have switched.
      if (reason === 'aborted' && assembled && unknownCalls.calls.length > 0 && options.readBack()) {
        await readBackAfterStop({
          calls: unknownCalls.calls,
          tools: assembled.byName,
          identity: { conversationId, turnId },
          emit,
          newId: this.newId,
          timeoutMs: this.options.readBackTimeoutMs ?? 10_000,
          ...(this.options.afterTool ? { afterTool: this.options.afterTool } : {}),
        }).catch((failure: unknown) => {
          error ??= `the state of the devices could not be read after the stop: ${(failure as Error)?.message ?? String(failure)}`;
        });
      }
      if (journalFailure !== undefined) {
        reason = 'error';
        error = journalFailure;
      }
      if (error !== undefined) emit({ type: 'agent/error', message: error });
      emit({ type: 'turn/end', reason, ...(error !== undefined ? { error } : {}) });
      return { turnId, reason, ...(error !== undefined ? { error } : {}) };
    };
    try {
      store.ensureConversation(conversationId, titleFromMessage(options.text));
      store.appendMessage(conversationId, { role: 'user', text: options.text });
      if (!chosen.ok) return await end('error', chosen.error);
      const model = chosen.model;
      const settings = this.options.settings();
      const assembly = assembleTurn({
        plugins: this.options.plugins.enabledPlugins(),
        disabled: this.options.plugins.disabledPlugins(),
        settings,
        listeners: this.options.promptListeners,
      });
      if (!assembly.ok) return await end('error', assembly.error);
      assembled = assembly.value;
      const maxSteps = settings.maxSteps ?? DEFAULT_MAX_STEPS;
      for (let step = 1; step <= maxSteps; step++) {
        if (signal.aborted) return await end('aborted');
        emit({ type: 'step/start', step });
        let next: Awaited<ReturnType<typeof runStep>>;
        try {
          next = await runStep({
            scope,
            step,
            model,
            assembled,
            settings,
            store,
            newId: this.newId,
            history: this.histories.of(conversationId),
            context: this.context,
            pipeline: {
              ...(this.options.approve ? { approve: this.options.approve } : {}),
              ...(this.options.afterTool ? { afterTool: this.options.afterTool } : {}),
              ...(this.options.argumentBounds ? { argumentBounds: this.options.argumentBounds } : {}),
            },
          });
        } finally {
          emit({ type: 'step/end', step });
        }
        if (next.kind === 'end') return await end(next.reason, next.error);
      }
      return await end('max_steps', `the turn stopped after ${maxSteps} steps (the step limit); ask again to continue`);
    } catch (error) {
      // A bug or a failing store must still close the turn, never crash the process.
      return await end(
        signal.aborted ? 'aborted' : 'error',
        `internal error: ${(error as Error)?.message ?? String(error)}`,
      );
    }
  }
}
