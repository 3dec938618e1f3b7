import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { PendingApprovalStore, PendingAnswer } from '../store/pending-approval-store.ts';
import type { ApprovalAnswer, OpenQuestion, QuestionBoard } from './person-approval-gate.ts';
import { startStoreLooks } from '../store/store-looks.ts';

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

/** How long after its question's time (or its last event) a turn whose process went silent is still followed. */
const GRACE_MS = 60_000;

/** How many of this host's own recent turns are remembered, so they are never relayed back to it. */
const OWN_TURNS_KEPT = 4096;

/**
 * The turns this host journals itself (its agent's, its MCP sessions' calls): another process's
 * turns are relayed, these never are. Only the most recent OWN_TURNS_KEPT are kept; an older one
 * started before the last look, so it is never found as new.
 */
export class OwnTurns {
  private readonly turns = new Set<string>();

  add(turnId: string): void {
    if (this.turns.has(turnId)) return;
    this.turns.add(turnId);
    if (this.turns.size > OWN_TURNS_KEPT) this.turns.delete(this.turns.values().next().value as string);
  }

  has(turnId: string): boolean {
    return this.turns.has(turnId);
  }
}

/**
 * Keeps the questions of every host on one data folder answerable from any of them, and the turns
 * other processes run there (an MCP client's calls through `home-agent mcp`, an `ask`) live in this
 * host's windows. This host's
 * questions go into the store (`board`) while they wait; answers other processes write to them are
 * handed to this host's gate. Other hosts' waiting questions are relayed to this host's front ends
 * with the turn that asked them, read from the shared journal (turn/start, the batch, the call, the
 * question, and then everything else that turn journals until its turn/end), so a window open on the
 * folder shows the card and answers it (`answer`). Turns other processes start after this host
 * started are relayed the same way, so their conversations and calls show as they happen. Like
 * PairedDevicesSync it looks when SQLite's
 * data_version moves, before answering, and on a timer that never keeps the process alive.
 */
export class PendingApprovalsSync {
  private version: number | undefined;
  private stopLooks: (() => void) | undefined;
  private readonly followed = new Map<string, FollowedTurn>();
  private disposed = false;
  /** The journal's last row seen: turns started after it are new. */
  private lastRow: number | undefined;
  /** Other processes' questions, relayed here, whose approval needs the PIN (checked here before it is written). */
  private readonly pinQuestions = new Set<string>();

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
        /** Turns started after a journal row, by any process. */
        turnStartsAfter(afterRow: number, limit: number): { row: number; conversationId: string; turnId: string }[];
        lastEventRow(): number;
      };
      /** The turns this host journals itself: never relayed back to it. */
      ownTurns: OwnTurns;
      /**
       * Whether other processes' questions and turns are relayed to this host's front ends: true
       * for a host with windows (the app, `serve`); false for `ask` and `mcp`, whose output is their
       * own turn alone (`ask --json` is one turn's events), while their own questions still go
       * through the store.
       */
      followOthers: boolean;
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

  /** Whether another process's question, relayed here, needs the approval PIN to be allowed. */
  needsPin(approvalId: string): boolean {
    return this.pinQuestions.has(approvalId);
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
    if (this.options.followOthers) this.followOthers(now);
    this.letGoOfSilentTurns();
    this.options.store.sweep(now - GRACE_MS);
    return true;
  }

  /** Follows other processes' waiting questions and new turns, and relays what they journaled since the last look. */
  private followOthers(now: number): void {
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
    this.followNewTurns(now);
    for (const turn of this.followed.values()) this.relayNewEvents(turn);
  }

  /** Starts looking every `pollMs` (default 200 ms); the timer never keeps the process alive. */
  start(): void {
    if (this.stopLooks !== undefined || this.disposed) return;
    // Turns journaled before this host started are history, read when a conversation is opened.
    this.lastRow ??= this.options.journal.lastEventRow();
    this.stopLooks = startStoreLooks({
      check: () => this.check(),
      pollMs: this.options.pollMs ?? 200,
      what: 'the questions waiting for an answer',
      log: this.options.log,
    });
  }

  dispose(): void {
    this.disposed = true;
    this.stopLooks?.();
    this.stopLooks = undefined;
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

  /** Follows the turns other processes started since the last look (bounded like the questions). */
  private followNewTurns(now: number): void {
    if (this.lastRow === undefined) return;
    const started = this.options.journal.turnStartsAfter(this.lastRow, MAX_FOLLOWED_QUESTIONS);
    for (const { row, conversationId, turnId } of started) {
      if (this.followed.size >= MAX_FOLLOWED_QUESTIONS) break;
      this.lastRow = row;
      if (this.options.ownTurns.has(turnId) || this.followed.has(turnId)) continue;
      this.followed.set(turnId, { conversationId, turnId, lastSeq: 0, expiresAt: now });
    }
  }

  private relayNewEvents(turn: FollowedTurn): void {
    const rows = this.options.journal.loadTurnEventsAfter({
      conversationId: turn.conversationId,
      turnId: turn.turnId,
      afterSeq: turn.lastSeq,
      limit: EVENTS_PER_LOOK,
    });
    // A turn still journaling is not silent: it is followed for GRACE_MS after its last event.
    if (rows.length > 0) turn.expiresAt = Math.max(turn.expiresAt, this.now());
    for (const { seq, event } of rows) {
      turn.lastSeq = seq;
      if (event.type === 'approval/request' && event.needsPin === true && event.approvalId !== undefined)
        this.pinQuestions.add(event.approvalId);
      this.options.relay(event);
      if (event.type === 'approval/end' && event.approvalId !== undefined) this.pinQuestions.delete(event.approvalId);
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
