import type { Settings } from '../contract/settings-table.ts';
import type { ApprovalWait } from './person-approval-gate.ts';

/** How a call of a front end's client waits for the person, with the settings of now. */
export type ClientWait = (settings: Settings) => ApprovalWait;

/**
 * The turns another front end's clients run here (each client call a turn of its own), and the
 * callers that are always a client's. A call is the client's whenever it runs in such a turn — made
 * by the client itself or by a sequence the client ran — so every question it asks waits as that
 * front end says (and counts against its session's bound). Anyone else's call: undefined.
 */
export class ClientTurns {
  private readonly turns = new Map<string, ClientWait>();
  private readonly callers = new Map<string, ClientWait>();

  /** Marks a turn as a client's until the returned function is called (when the call's turn ends). */
  begin(turnId: string, wait: ClientWait): () => void {
    this.turns.set(turnId, wait);
    return () => void this.turns.delete(turnId);
  }

  /** Every call made as `caller` waits as `wait` says, in whatever turn it runs. */
  caller(caller: string, wait: ClientWait): void {
    this.callers.set(caller, wait);
  }

  /** How a call waits for the person: its turn's client's, else its caller's, else undefined. */
  approvalWait(request: { caller?: string; turnId: string }, settings: Settings): ApprovalWait | undefined {
    const wait =
      this.turns.get(request.turnId) ?? (request.caller !== undefined ? this.callers.get(request.caller) : undefined);
    return wait?.(settings);
  }
}
