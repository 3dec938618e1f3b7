import type Database from 'better-sqlite3';
import { checkedWrite } from './checked-write.ts';

/** How many wrong PINs in a row lock PIN approvals. */
export const PIN_ATTEMPTS_BEFORE_LOCK = 5;
/** How long PIN approvals stay locked after that many wrong PINs. */
export const PIN_LOCK_MS = 10 * 60_000;

type Row = { failures: number; lockedUntil: number };

/** What a wrong PIN left: how many tries remain before the lock, or until when PIN approvals are locked. */
export type PinFailure = { triesLeft: number } | { lockedUntil: number };

/**
 * The wrong PINs given on a data folder (`pin_attempts`), counted in the store so that every process
 * on the folder (the window, `serve`, `ask`, `mcp`) shares one count and one lock: five wrong in a
 * row lock PIN approvals for ten minutes; a right PIN starts the count again.
 */
export class PinAttemptStore {
  private readonly statements;
  private readonly failInTransaction: (now: number) => PinFailure;

  constructor(private readonly options: { db: Database.Database }) {
    const { db } = options;
    this.statements = {
      get: db.prepare<[], Row>('SELECT failures, locked_until AS lockedUntil FROM pin_attempts WHERE id = 1'),
      put: db.prepare<[number, number]>(
        `INSERT INTO pin_attempts (id, failures, locked_until) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until`,
      ),
      clear: db.prepare('DELETE FROM pin_attempts'),
    };
    const fail = db.transaction((now: number): PinFailure => {
      const row = this.statements.get.get();
      // A lock that ran out starts a new count.
      const before = row && row.lockedUntil <= now ? row.failures : 0;
      const failures = before + 1;
      if (failures >= PIN_ATTEMPTS_BEFORE_LOCK) {
        const lockedUntil = now + PIN_LOCK_MS;
        this.statements.put.run(0, lockedUntil);
        return { lockedUntil };
      }
      this.statements.put.run(failures, 0);
      return { triesLeft: PIN_ATTEMPTS_BEFORE_LOCK - failures };
    });
    // IMMEDIATE: two processes counting at once each see the other's wrong PIN.
    this.failInTransaction = (now) => fail.immediate(now);
  }

  /** Until when PIN approvals are locked, or undefined when they are not (at `now`). */
  lockedUntil(now: number): number | undefined {
    const row = this.statements.get.get();
    return row !== undefined && row.lockedUntil > now ? row.lockedUntil : undefined;
  }

  /** Counts a wrong PIN; says how many tries are left, or that (and until when) PIN approvals are now locked. */
  recordFailure(now: number): PinFailure {
    return checkedWrite({ db: this.options.db, what: 'a wrong PIN' }, () => this.failInTransaction(now));
  }

  /** A right PIN (or a reset at the machine): the count starts again and any lock ends. */
  clear(): void {
    checkedWrite({ db: this.options.db, what: 'the PIN attempts' }, () => this.statements.clear.run());
  }
}
