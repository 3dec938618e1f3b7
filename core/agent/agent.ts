import type { AgentEvent, AgentEventInput, TurnEndReason } from '../events/agent-event.ts';
import type { AgentEvents } from '../events/agent-events.ts';
import type { TurnScope } from '../events/turn-scope.ts';
import type { ModelAdapter } from '../models/model-adapter.ts';
import type { PluginRegistry } from '../plugins/plugin-registry.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { AfterToolHook, ApprovalGate } from '../batch/run-tool-call.ts';
import type { PromptAssembleListener } from '../prompt/assemble-prompt.ts';
import { runStep } from './run-step.ts';
import { assembleTurn, type AgentSettings } from './assemble-turn.ts';
import { RequestHistories } from './request-history.ts';

export type { AgentSettings } from './assemble-turn.ts';

export interface AgentOptions {
  /** The model; a function lets the host swap it between turns. */
  model: () => ModelAdapter;
  plugins: PluginRegistry;
  store: ConversationStore;
  /** Where the turn's events go: journaled, then broadcast (shared with the approval gate). */
  events: AgentEvents;
  settings: () => AgentSettings;
  approve?: ApprovalGate;
  afterTool?: AfterToolHook[];
  promptListeners?: PromptAssembleListener[];
  newId?: () => string;
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
  private readonly running = new Map<string, AbortController>();
  private readonly turns = new Set<Promise<TurnOutcome>>();
  private readonly newId: () => string;
  private readonly histories = new RequestHistories();

  constructor(private readonly options: AgentOptions) {
    this.newId = options.newId ?? (() => crypto.randomUUID());
  }

  /** Resolves when no turn is running (after an abort, before closing the store). */
  async whenIdle(): Promise<void> {
    while (this.turns.size > 0) await Promise.allSettled([...this.turns]);
  }

  isBusy(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  /** Aborts the running turn of a conversation; every running call is answered `aborted`. */
  abort(conversationId: string): boolean {
    const controller = this.running.get(conversationId);
    if (!controller) return false;
    controller.abort(new Error('aborted by the user'));
    return true;
  }

  /**
   * Starts a turn and returns its id at once with the promise of its end (front ends answer the
   * request with the id and follow the events).
   */
  startTurn(options: { conversationId: string; text: string; signal?: AbortSignal }): {
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
    this.running.set(options.conversationId, controller);
    const turnId = this.newId();
    const done = this.runTurnBody({
      conversationId: options.conversationId,
      text: options.text,
      turnId,
      signal: controller.signal,
    }).finally(() => {
      this.running.delete(options.conversationId);
      this.turns.delete(done);
    });
    this.turns.add(done);
    return { turnId, done };
  }

  /** Runs one whole turn. */
  runTurn(options: { conversationId: string; text: string; signal?: AbortSignal }): Promise<TurnOutcome> {
    return this.startTurn(options).done;
  }

  private async runTurnBody(options: {
    conversationId: string;
    text: string;
    turnId: string;
    signal: AbortSignal;
  }): Promise<TurnOutcome> {
    const { conversationId, turnId } = options;
    const { store } = this.options;
    // A journal write that fails stops the turn: nothing may happen in the home that is not recorded.
    const stop = new AbortController();
    const signal = AbortSignal.any([options.signal, stop.signal]);
    let journalFailure: string | undefined;
    const emit = (input: AgentEventInput): void => {
      const event = { ...input, at: Date.now(), conversationId, turnId } as AgentEvent;
      if (this.options.events.emit(event) || journalFailure !== undefined) return;
      journalFailure = `the journal could not record ${event.type}, so the turn was stopped (nothing may happen in the home that is not recorded); check the disk of the data folder`;
      stop.abort(new Error(journalFailure));
    };
    const scope: TurnScope = { conversationId, turnId, signal, emit };
    const model = this.options.model();
    emit({ type: 'turn/start', text: options.text, model: model.label });
    const end = (reason: TurnEndReason, error?: string): TurnOutcome => {
      if (journalFailure !== undefined) {
        reason = 'error';
        error = journalFailure;
      }
      if (error !== undefined) emit({ type: 'agent/error', message: error });
      emit({ type: 'turn/end', reason, ...(error !== undefined ? { error } : {}) });
      return { turnId, reason, ...(error !== undefined ? { error } : {}) };
    };
    try {
      store.ensureConversation(conversationId, options.text.slice(0, 60));
      store.appendMessage(conversationId, { role: 'user', text: options.text });
      const settings = this.options.settings();
      const assembled = assembleTurn({
        plugins: this.options.plugins.enabledPlugins(),
        settings,
        listeners: this.options.promptListeners,
      });
      if (!assembled.ok) return end('error', assembled.error);
      const maxSteps = settings.maxSteps ?? 8;
      for (let step = 1; step <= maxSteps; step++) {
        if (signal.aborted) return end('aborted');
        emit({ type: 'step/start', step });
        let next: Awaited<ReturnType<typeof runStep>>;
        try {
          next = await runStep({
            scope,
            step,
            model,
            assembled: assembled.value,
            settings,
            store,
            newId: this.newId,
            history: this.histories.of(conversationId),
            pipeline: {
              ...(this.options.approve ? { approve: this.options.approve } : {}),
              ...(this.options.afterTool ? { afterTool: this.options.afterTool } : {}),
            },
          });
        } finally {
          emit({ type: 'step/end', step });
        }
        if (next.kind === 'end') return end(next.reason, next.error);
      }
      return end('max_steps', `the turn stopped after ${maxSteps} steps (the step limit); ask again to continue`);
    } catch (error) {
      // A bug or a failing store must still close the turn, never crash the process.
      return end(signal.aborted ? 'aborted' : 'error', `internal error: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}
