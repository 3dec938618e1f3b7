import type { ApprovalWait } from '../../approvals/person-approval-gate.ts';
import type { Settings } from '../../contract/settings-table.ts';
import { MCP_CALLER, mcpApprovalWait, type SessionQuestions } from './mcp-approval-wait.ts';

/**
 * The turns this host's MCP sessions are running (each client call is a turn of its own), with the
 * questions each session may keep open. A call is the client's whenever it runs in such a turn —
 * made by the client itself or by a sequence the client ran (`seq_run`, caller `sequences`) — so
 * every question it asks waits `mcpApprovalWaitMs` and counts against that session's bound.
 */
export class McpTurns {
  private readonly turns = new Map<string, SessionQuestions>();

  /** Marks a turn as a session's until the returned function is called (when the call's turn ends). */
  begin(turnId: string, questions: SessionQuestions): () => void {
    this.turns.set(turnId, questions);
    return () => void this.turns.delete(turnId);
  }

  /** How a call waits for the person: an MCP client's (bounded by its session when it runs in one), or undefined for anyone else's. */
  approvalWait(request: { caller?: string; turnId: string }, settings: Settings): ApprovalWait | undefined {
    const questions = this.turns.get(request.turnId);
    if (questions === undefined && request.caller !== MCP_CALLER) return undefined;
    return mcpApprovalWait(settings, questions);
  }
}
