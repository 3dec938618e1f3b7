import type Database from 'better-sqlite3';

/** One "Always allow": exactly this tool, on exactly this device (absent for a tool that is not a device's). */
export interface StandingApproval {
  tool: string;
  deviceId?: string;
  createdAt: number;
}

/** Which tool and device a standing approval is about. */
export interface ApprovalTarget {
  tool: string;
  deviceId?: string;
}

export interface StandingApprovalStoreOptions {
  db: Database.Database;
  now?: () => number;
}

type Row = { tool: string; deviceId: string; createdAt: number };

/**
 * The standing approvals of a data folder, in SQLite. Every question reads the table itself (one
 * indexed look-up), so an approval revoked by another front end or process applies to the next call.
 */
export class StandingApprovalStore {
  private readonly now: () => number;
  private readonly statements;

  constructor(options: StandingApprovalStoreOptions) {
    const { db } = options;
    this.now = options.now ?? Date.now;
    this.statements = {
      list: db.prepare<[], Row>(
        'SELECT tool, device_id AS deviceId, created_at AS createdAt FROM standing_approvals ORDER BY device_id, tool',
      ),
      covers: db
        .prepare<[string, string], number>('SELECT 1 FROM standing_approvals WHERE tool = ? AND device_id = ?')
        .pluck(),
      add: db.prepare<[string, string, number]>(
        'INSERT INTO standing_approvals (tool, device_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      revoke: db.prepare<[string, string]>('DELETE FROM standing_approvals WHERE tool = ? AND device_id = ?'),
      forgetDevice: db.prepare<[string]>('DELETE FROM standing_approvals WHERE device_id = ?'),
    };
  }

  /** Every standing approval, by device then tool (tools that are not a device's first). */
  list(): StandingApproval[] {
    return this.statements.list.all().map((row) => ({
      tool: row.tool,
      ...(row.deviceId !== '' ? { deviceId: row.deviceId } : {}),
      createdAt: row.createdAt,
    }));
  }

  /** Whether a standing approval covers exactly this tool on exactly this device. */
  covers(target: ApprovalTarget): boolean {
    return this.statements.covers.get(target.tool, target.deviceId ?? '') !== undefined;
  }

  /** Remembers "Always allow" for this tool (on this device); true when it is new. */
  add(target: ApprovalTarget): boolean {
    return this.statements.add.run(target.tool, target.deviceId ?? '', this.now()).changes > 0;
  }

  /** Takes a standing approval back; false when there was none. */
  revoke(target: ApprovalTarget): boolean {
    return this.statements.revoke.run(target.tool, target.deviceId ?? '').changes > 0;
  }

  /** Removes every standing approval of a device (it was forgotten, or its identity changed). */
  forgetDevice(deviceId: string): number {
    return this.statements.forgetDevice.run(deviceId).changes;
  }
}
