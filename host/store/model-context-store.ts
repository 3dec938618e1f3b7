import type Database from 'better-sqlite3';
import {
  windowFilterMatches,
  type ContextKey,
  type ContextMemory,
  type ForgottenWindow,
  type LearnedContext,
  type WindowFilter,
} from '../../core/context/context-memory.ts';
import { checkedWrite } from './checked-write.ts';

type Row = { windowTokens: number | null; bytesPerToken: number | null };
type WindowRow = { baseUrl: string; model: string; windowTokens: number };

/**
 * What was learned of each model's context (core's ContextMemory) in the store's `model_contexts`
 * table, per base URL (without a trailing slash) and model. A write the disk refuses throws a
 * StoreError; the context keeper reports it and keeps the value for the process.
 */
export class ModelContextStore implements ContextMemory {
  private readonly db: Database.Database;
  private readonly now: () => number;
  private statements:
    | {
        read: Database.Statement<[string, string], Row>;
        upsert: Database.Statement<Record<string, unknown>>;
        windows: Database.Statement<[], WindowRow>;
        forget: Database.Statement<[string, string]>;
        dropEmpty: Database.Statement<[string, string]>;
      }
    | undefined;

  constructor(options: { db: Database.Database; now?: () => number }) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
  }

  read(key: ContextKey): LearnedContext | undefined {
    const row = this.prepared().read.get(baseUrlOf(key), key.model);
    if (row === undefined) return undefined;
    const learned: LearnedContext = {};
    if (row.windowTokens !== null && row.windowTokens > 0) learned.windowTokens = row.windowTokens;
    if (row.bytesPerToken !== null && row.bytesPerToken > 0) learned.bytesPerToken = row.bytesPerToken;
    return learned;
  }

  write(key: ContextKey, learned: LearnedContext): void {
    const { upsert } = this.prepared();
    checkedWrite({ db: this.db, what: `what was learned of ${key.model}'s context window` }, () =>
      upsert.run({
        baseUrl: baseUrlOf(key),
        model: key.model,
        windowTokens: learned.windowTokens ?? null,
        bytesPerToken: learned.bytesPerToken ?? null,
        updatedAt: this.now(),
      }),
    );
  }

  /**
   * Forgets the learned windows `filter` matches, keeping each measured ratio (a row left with
   * nothing goes), in one transaction; returns them ordered by base URL and model.
   */
  forgetWindows(filter: WindowFilter): ForgottenWindow[] {
    const { windows, forget, dropEmpty } = this.prepared();
    return checkedWrite({ db: this.db, what: 'forgetting the learned context windows' }, () =>
      this.db.transaction(() => {
        const matched = windows.all().filter((row) => windowFilterMatches(filter, row));
        for (const row of matched) {
          forget.run(row.baseUrl, row.model);
          dropEmpty.run(row.baseUrl, row.model);
        }
        return matched.map((row) => ({ baseUrl: row.baseUrl, model: row.model, windowTokens: row.windowTokens }));
      })(),
    );
  }

  // Prepared when first used: a store opened read-only on an older schema has no such table.
  private prepared() {
    this.statements ??= {
      read: this.db.prepare<[string, string], Row>(
        'SELECT window_tokens AS windowTokens, bytes_per_token AS bytesPerToken FROM model_contexts WHERE base_url = ? AND model = ?',
      ),
      upsert: this.db.prepare(
        `INSERT INTO model_contexts (base_url, model, window_tokens, bytes_per_token, updated_at)
         VALUES (@baseUrl, @model, @windowTokens, @bytesPerToken, @updatedAt)
         ON CONFLICT (base_url, model) DO UPDATE SET window_tokens = excluded.window_tokens,
           bytes_per_token = excluded.bytes_per_token, updated_at = excluded.updated_at`,
      ),
      windows: this.db.prepare<[], WindowRow>(
        `SELECT base_url AS baseUrl, model, window_tokens AS windowTokens FROM model_contexts
         WHERE window_tokens IS NOT NULL ORDER BY base_url, model`,
      ),
      forget: this.db.prepare<[string, string]>(
        'UPDATE model_contexts SET window_tokens = NULL WHERE base_url = ? AND model = ?',
      ),
      dropEmpty: this.db.prepare<[string, string]>(
        'DELETE FROM model_contexts WHERE base_url = ? AND model = ? AND window_tokens IS NULL AND bytes_per_token IS NULL',
      ),
    };
    return this.statements;
  }
}

function baseUrlOf(key: ContextKey): string {
  return key.baseUrl.replace(/\/+$/, '');
}
