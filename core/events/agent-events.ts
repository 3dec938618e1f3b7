import type { AgentEvent } from './agent-event.ts';
import { Emitter, type ListenerErrorHandler } from './emitter.ts';

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
 * reported: `emit` says so, and `onJournalFailure` listeners hear it.
 */
export class AgentEvents {
  private readonly listeners: Emitter<AgentEvent>;
  private readonly failures = new Emitter<JournalFailure>({ name: 'journal failure' });

  constructor(private readonly options: { journal: EventJournal; onListenerError?: ListenerErrorHandler<AgentEvent> }) {
    this.listeners = new Emitter<AgentEvent>({
      name: 'agent event',
      ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}),
    });
  }

  /** Journals then broadcasts one event; false when the journal could not keep it. */
  emit(event: AgentEvent): boolean {
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
