import { LIVE_ONLY_EVENT_TYPES, type AgentEvent } from './agent-event.ts';
import { Emitter, type ListenerErrorHandler } from './emitter.ts';
import { boundEventArguments } from './bound-event-arguments.ts';
import type { ArgumentBounds } from '../tools/argument-bounds.ts';

/** Where agent events are kept (the host's SQLite journal; memory in tests). */
export interface EventJournal {
  appendEvent(event: AgentEvent): void;
}

/** A journal write that failed, with the event it was writing. */
export interface JournalFailure {
  error: unknown;
  event: AgentEvent;
}

/**
 * The one way agent events leave the kernel: each is journaled, then broadcast to every listener
 * (the CLI, the web socket, the Electron window). The agent and the approval gate both emit
 * through it. A failed journal write is still broadcast (the person must see what happens), and is
 * reported: `emit` says so, and `onJournalFailure` listeners hear it. Every way in emits here, so
 * here call arguments are bounded before they are journaled or broadcast: those nested past
 * MAX_JSON_DEPTH or over `argumentBounds` become a bounded stand-in (runToolCall refuses the same
 * calls, given the same bounds).
 */
export class AgentEvents {
  private readonly listeners: Emitter<AgentEvent>;
  private readonly failures = new Emitter<JournalFailure>({ name: 'journal failure' });

  constructor(
    private readonly options: {
      journal: EventJournal;
      onListenerError?: ListenerErrorHandler<AgentEvent>;
      /** The size bound of call arguments (the host's `maxToolArgumentBytes`); the depth bound always applies. */
      argumentBounds?: () => ArgumentBounds;
    },
  ) {
    this.listeners = new Emitter<AgentEvent>({
      name: 'agent event',
      ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}),
    });
  }

  /**
   * Bounds its arguments, journals then broadcasts one event; false when the journal could not keep
   * it. A live-only event (LIVE_ONLY_EVENT_TYPES) is broadcast and never journaled.
   */
  emit(input: AgentEvent): boolean {
    if (LIVE_ONLY_EVENT_TYPES.has(input.type)) {
      this.listeners.emit(input);
      return true;
    }
    const event = boundEventArguments(input, () => this.options.argumentBounds?.());
    let journaled = true;
    try {
      this.options.journal.appendEvent(event);
    } catch (error) {
      journaled = false;
      this.failures.emit({ error, event });
    }
    this.listeners.emit(event);
    return journaled;
  }

  /**
   * Broadcasts an event another process journaled in the same store (its MCP calls, a question it
   * asks): every front end sees it live, and it is never journaled a second time.
   */
  relay(event: AgentEvent): void {
    this.listeners.emit(event);
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.listeners.subscribe(listener);
  }

  onJournalFailure(listener: (failure: JournalFailure) => void): () => void {
    return this.failures.subscribe(listener);
  }
}
