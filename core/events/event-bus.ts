import type { AgentEvent } from './agent-event.ts';

export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Synchronous fan-out of agent events. A listener that throws is reported through `onListenerError`
 * and never stops the turn or the other listeners.
 */
export class EventBus {
  private readonly listeners = new Set<AgentEventListener>();

  constructor(private readonly onListenerError: (error: unknown, event: AgentEvent) => void = () => {}) {}

  /** Subscribe; the returned function unsubscribes. */
  subscribe(listener: AgentEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }
}
