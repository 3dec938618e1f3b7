import type Database from 'better-sqlite3';
import { checkedWrite } from './checked-write.ts';

/**
 * The approval PIN of a data folder (`approval_pin`): at most one salted scrypt hash, never the PIN.
 * Every check reads the row itself, so a PIN set or reset by another process applies at once.
 */
export class ApprovalPinStore {
  private readonly statements;

  constructor(private readonly options: { db: Database.Database; now?: () => number }) {
    const { db } = options;
    this.statements = {
      get: db.prepare<[], string>('SELECT hash FROM approval_pin WHERE id = 1').pluck(),
      set: db.prepare<[string, number]>(
        `INSERT INTO approval_pin (id, hash, set_at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, set_at = excluded.set_at`,
      ),
      remove: db.prepare('DELETE FROM approval_pin'),
    };
  }

  /** The stored hash, or undefined when no PIN is set. */
  hash(): string | undefined {
    return this.statements.get.get();
  }

  /** Stores a new hash in place of any other. */
  setHash(hash: string): void {
    checkedWrite({ db: this.options.db, what: 'the approval PIN' }, () =>
      this.statements.set.run(hash, (this.options.now ?? Date.now)()),
    );
  }

  /** Removes the PIN; false when none was set. */
  remove(): boolean {
    return (
      checkedWrite({ db: this.options.db, what: 'the approval PIN' }, () => this.statements.remove.run()).changes > 0
    );
  }
}
