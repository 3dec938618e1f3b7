import type Database from 'better-sqlite3';
import { checkedWrite } from './checked-write.ts';

/** A question a host is waiting on: whose it is, which turn asked, and until when it waits. */
export interface PendingQuestion {
  approvalId: string;
  /** The asking host's run id: only that host acts on the answer. */
  owner: string;
  conversationId: string;
  turnId: string;
  askedAt: number;
  expiresAt: number;
}

/** A person's answer, written by whichever host's window gave it. */
export interface PendingAnswer {
  approvalId: string;
  approved: boolean;
  remember: boolean;
}

type AnswerRow = { approvalId: string; approved: number; remember: number };

const QUESTION_COLUMNS =
  'approval_id AS approvalId, owner, conversation_id AS conversationId, turn_id AS turnId, asked_at AS askedAt, expires_at AS expiresAt';

/**
 * The questions hosts on one data folder are waiting on (`pending_approvals`). The asking host
 * opens a row and deletes it when its question ends; any host's window answers by writing the
 * answer into a row that is still open, unanswered and not past its time; the asking host reads the
 * answers to its own rows. Rows a stopped host left behind are past `expires_at` and swept.
 */
export class PendingApprovalStore {
  private readonly statements;

  constructor(private readonly options: { db: Database.Database }) {
    const { db } = options;
    this.statements = {
      open: db.prepare<PendingQuestion>(
        `INSERT INTO pending_approvals (approval_id, owner, conversation_id, turn_id, asked_at, expires_at)
         VALUES (@approvalId, @owner, @conversationId, @turnId, @askedAt, @expiresAt)`,
      ),
      close: db.prepare<[string]>('DELETE FROM pending_approvals WHERE approval_id = ?'),
      answer: db.prepare<{ approvalId: string; approved: number; remember: number; now: number }>(
        `UPDATE pending_approvals SET approved = @approved, remember = @remember, answered_at = @now
         WHERE approval_id = @approvalId AND answered_at IS NULL AND expires_at > @now`,
      ),
      answersFor: db.prepare<[string], AnswerRow>(
        `SELECT approval_id AS approvalId, approved, remember FROM pending_approvals
         WHERE owner = ? AND answered_at IS NOT NULL`,
      ),
      waitingOfOthers: db.prepare<[string, number, number], PendingQuestion>(
        `SELECT ${QUESTION_COLUMNS} FROM pending_approvals
         WHERE owner <> ? AND answered_at IS NULL AND expires_at > ? ORDER BY asked_at LIMIT ?`,
      ),
      waitingTurn: db
        .prepare<[string, number], number>('SELECT 1 FROM pending_approvals WHERE turn_id = ? AND expires_at > ?')
        .pluck(),
      sweep: db.prepare<[number]>('DELETE FROM pending_approvals WHERE expires_at <= ?'),
    };
  }

  /** Records a question its host now waits on. */
  open(question: PendingQuestion): void {
    checkedWrite({ db: this.options.db, what: 'a question waiting for an answer' }, () =>
      this.statements.open.run(question),
    );
  }

  /** The question ended (answered, timed out, stopped): its row goes. */
  close(approvalId: string): void {
    checkedWrite({ db: this.options.db, what: 'a question that ended' }, () => this.statements.close.run(approvalId));
  }

  /** Writes a person's answer; false when no such question is open, unanswered and still waiting. */
  answer(answer: PendingAnswer, now: number): boolean {
    const changed = checkedWrite({ db: this.options.db, what: 'an answer to a question' }, () =>
      this.statements.answer.run({
        approvalId: answer.approvalId,
        approved: answer.approved ? 1 : 0,
        remember: answer.remember ? 1 : 0,
        now,
      }),
    );
    return changed.changes > 0;
  }

  /** The answers written to `owner`'s questions (by any process). */
  answersFor(owner: string): PendingAnswer[] {
    return this.statements.answersFor
      .all(owner)
      .map((row) => ({ approvalId: row.approvalId, approved: row.approved === 1, remember: row.remember === 1 }));
  }

  /** Other hosts' questions still waiting, oldest first, at most `limit`. */
  waitingOfOthers(options: { owner: string; now: number; limit: number }): PendingQuestion[] {
    return this.statements.waitingOfOthers.all(options.owner, options.now, options.limit);
  }

  /** Whether a question of this turn is still waiting (its host is alive and asking). */
  isWaiting(turnId: string, now: number): boolean {
    return this.statements.waitingTurn.get(turnId, now) !== undefined;
  }

  /** Removes rows past their time (left by a host that stopped); returns how many. */
  sweep(before: number): number {
    return checkedWrite({ db: this.options.db, what: 'questions nobody waits on' }, () =>
      this.statements.sweep.run(before),
    ).changes;
  }
}
