import type { AgentEventInput } from './agent-event.ts';

/**
 * One turn's identity and lifetime, made once when the turn starts and handed down to every step,
 * batch and call: which conversation and turn, the signal that stops it, and the one way its
 * events are emitted (stamped, journaled, broadcast).
 */
export interface TurnScope {
  readonly conversationId: string;
  readonly turnId: string;
  readonly signal: AbortSignal;
  /** Stamps, journals and broadcasts one event; returns `false` when the journal could not keep it (anything else: kept). */
  emit(event: AgentEventInput): unknown;
}
