import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';

/** A temp data folder for one test; `dispose` closes every database registered and removes the folder. */
export class TempStoreFolder {
  readonly path = mkdtempSync(join(tmpdir(), 'home-agent-store-'));
  private readonly databases: Database.Database[] = [];

  file(name = 'home-agent.db'): string {
    return join(this.path, name);
  }

  /** Registers a database so `dispose` closes it if the test did not. */
  own(db: Database.Database): Database.Database {
    this.databases.push(db);
    return db;
  }

  entries(): string[] {
    return readdirSync(this.path).sort();
  }

  dispose(): void {
    for (const db of this.databases) if (db.open) db.close();
    rmSync(this.path, { recursive: true, force: true });
  }
}

export function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Deterministic bytes (xorshift32) so a "random" file is the same on every run. */
export function pseudoRandomBytes(length: number, seed = 0x9e3779b9): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i += 1) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[i] = state & 0xff;
  }
  return bytes;
}
