import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { PendingApprovalStore, PendingAnswer } from '../store/pending-approval-store.ts';
import type { ApprovalAnswer, OpenQuestion, QuestionBoard } from './person-approval-gate.ts';

/**
 * The most questions of other processes a host follows at once. Each open question is one call
 * waiting (an MCP session runs at most MAX_CALLS_IN_FLIGHT), so this is far above any real home;
 * past it, the oldest are shown first and the rest as others end.
 */
export const MAX_FOLLOWED_QUESTIONS = 256;

/** How many of a followed turn's events one look relays (a turn has a handful; the rest come at the next look). */
const EVENTS_PER_LOOK = 256;

/** A turn of another process this host relays to its front ends, because it asked a question. */
interface FollowedTurn {
  conversationId: string;
  turnId: string;
  /** The last journal sequence number relayed. */
  lastSeq: number;
  /** When the question that made us follow it stops waiting; past it (and a grace), a silent turn is let go. */
  expiresAt: number;
}

/** How long after its question's time a turn whose process went silent is still followed. */
const GRACE_MS = 60_000;

/**
 * Keeps the questions of every host on one data folder answerable from any of them. This host's
 * questions go into the store (`board`) while they wait; answers other processes write to them are
 * handed to this host's gate. Other hosts' waiting questions are relayed to this host's front ends
 * with the turn that asked them, read from the shared journal (turn/start, the batch, the call, the
 * question, and then everything else that turn journals until its turn/end), so a window open on the
 * folder shows the card and answers it (`answer`). Like PairedDevicesSync it looks when SQLite's
 * data_version moves, before answering, and on a timer that never keeps the process alive.
 */
export class PendingApprovalsSync {
  private version: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly followed = new Map<string, FollowedTurn>();
  private disposed = false;

  constructor(
    private readonly options: {
      store: PendingApprovalStore;
      /** Reads a turn's journaled events after a sequence number (the shared journal). */
      journal: {
        loadTurnEventsAfter(options: {
          conversationId: string;
          turnId: string;
          afterSeq: number;
          limit: number;
        }): { seq: number; event: AgentEvent }[];
      };
      /** This host's run id: its own rows carry it. */
      owner: string;
      dataVersion: () => number;
      /** Sends another process's journaled event to this host's front ends (never journals it). */
      relay: (event: AgentEvent) => void;
      /** Hands an answer written by another process to this host's gate; false when it no longer waits. */
      answerOwn: (answer: ApprovalAnswer) => boolean;
      pollMs?: number;
      now?: () => number;
      log: (line: string) => void;
    },
  ) {}

  /** Where the gate puts this host's questions. */
  readonly board: QuestionBoard = {
    open: (question: OpenQuestion) => this.options.store.open({ ...question, owner: this.options.owner }),
    close: (approvalId: string) => this.options.store.close(approvalId),
  };

  /** A person's answer, given in this host's window, to another host's question; false when none such waits. */
  answer(answer: ApprovalAnswer): boolean {
    const written = this.options.store.answer(
      { approvalId: answer.approvalId, approved: answer.approved, remember: answer.remember === true },
      this.now(),
    );
    return written;
  }

  /** Whether a question of this turn is waiting in some host (so the turn is not a dead process's). */
  isWaiting(turnId: string): boolean {
    return this.options.store.isWaiting(turnId, this.now());
  }

  /** Looks at the store if another connection committed since the last look; true when it did. */
  check(): boolean {
    if (this.disposed) return false;
    const version = this.options.dataVersion();
    if (version === this.version) {
      this.letGoOfSilentTurns();
      return false;
    }
    this.version = version;
    for (const answer of this.options.store.answersFor(this.options.owner)) this.deliver(answer);
    const now = this.now();
    for (const question of this.options.store.waitingOfOthers({
      owner: this.options.owner,
      now,
      limit: MAX_FOLLOWED_QUESTIONS,
    })) {
      const known = this.followed.get(question.turnId);
      if (known) known.expiresAt = Math.max(known.expiresAt, question.expiresAt);
      else if (this.followed.size < MAX_FOLLOWED_QUESTIONS)
        this.followed.set(question.turnId, {
          conversationId: question.conversationId,
          turnId: question.turnId,
          lastSeq: 0,
          expiresAt: question.expiresAt,
        });
    }
    for (const turn of this.followed.values()) this.relayNewEvents(turn);
    this.letGoOfSilentTurns();
    this.options.store.sweep(now - GRACE_MS);
    return true;
  }

  /** Starts looking every `pollMs` (default 200 ms); the timer never keeps the process alive. */
  start(): void {
    if (this.timer !== undefined || this.disposed) return;
    this.timer = setInterval(() => {
      try {
        this.check();
      } catch (error) {
        // A locked or failing store must not stop the host: the next look tries again.
        this.options.log(`could not read the questions waiting for an answer: ${(error as Error).message}`);
      }
    }, this.options.pollMs ?? 200);
    this.timer.unref?.();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.followed.clear();
  }

  /** How many turns of other processes are followed now (bounded by MAX_FOLLOWED_QUESTIONS). */
  get followedTurns(): number {
    return this.followed.size;
  }

  private deliver(answer: PendingAnswer): void {
    // The gate takes the row down when the question ends; an answer to a question that no longer
    // waits (timed out meanwhile) is taken down here.
    if (!this.options.answerOwn(answer)) this.options.store.close(answer.approvalId);
  }

  private relayNewEvents(turn: FollowedTurn): void {
    const rows = this.options.journal.loadTurnEventsAfter({
      conversationId: turn.conversationId,
      turnId: turn.turnId,
      afterSeq: turn.lastSeq,
      limit: EVENTS_PER_LOOK,
    });
    for (const { seq, event } of rows) {
      turn.lastSeq = seq;
      this.options.relay(event);
      if (event.type === 'turn/end') {
        this.followed.delete(turn.turnId);
        return;
      }
    }
  }

  private letGoOfSilentTurns(): void {
    const now = this.now();
    for (const [turnId, turn] of this.followed) if (turn.expiresAt + GRACE_MS < now) this.followed.delete(turnId);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
