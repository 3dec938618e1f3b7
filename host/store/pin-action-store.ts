import type Database from 'better-sqlite3';
import { checkedWrite } from './checked-write.ts';

/** A person's mark on one action of one device: it needs the PIN, or it does not (whatever its kind's default). */
export interface PinMark {
  deviceId: string;
  action: string;
  needsPin: boolean;
}

/**
 * Which device actions the person marked as needing the approval PIN or not (`pin_actions`). An
 * action with no mark follows its kind's default; forgetting the device removes its marks (trigger).
 */
export class PinActionStore {
  private readonly statements;

  constructor(private readonly options: { db: Database.Database }) {
    const { db } = options;
    this.statements = {
      mark: db
        .prepare<[string, string], number>('SELECT needs_pin FROM pin_actions WHERE device_id = ? AND action = ?')
        .pluck(),
      ofDevice: db.prepare<[string], { action: string; needsPin: number }>(
        'SELECT action, needs_pin AS needsPin FROM pin_actions WHERE device_id = ? ORDER BY action',
      ),
      put: db.prepare<[string, string, number]>(
        `INSERT INTO pin_actions (device_id, action, needs_pin) VALUES (?, ?, ?)
         ON CONFLICT (device_id, action) DO UPDATE SET needs_pin = excluded.needs_pin`,
      ),
    };
  }

  /** The person's mark on this action of this device, or undefined when there is none. */
  mark(deviceId: string, action: string): boolean | undefined {
    const value = this.statements.mark.get(deviceId, action);
    return value === undefined ? undefined : value === 1;
  }

  /** Every mark of a device, by action name. */
  marksOf(deviceId: string): PinMark[] {
    return this.statements.ofDevice
      .all(deviceId)
      .map((row) => ({ deviceId, action: row.action, needsPin: row.needsPin === 1 }));
  }

  /** Marks an action as needing the PIN (true) or not (false). */
  setMark(mark: PinMark): void {
    checkedWrite({ db: this.options.db, what: 'whether an action needs the PIN' }, () =>
      this.statements.put.run(mark.deviceId, mark.action, mark.needsPin ? 1 : 0),
    );
  }
}
