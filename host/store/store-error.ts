/**
 * Why the store refused: the file is damaged (`corrupt`), belongs to another program (`foreign`),
 * was written by a newer Home Agent (`too_new`), is a link or not a regular file (`not_a_file`), is
 * absent or unmigrated while opened read-only (`missing`, `outdated`), a stored row no longer validates (`invalid_row`), a value to store is
 * invalid (`invalid_value`), or a referenced row does not exist (`not_found`). A write the disk
 * refused: no space left (`disk_full`), a read-only file or folder (`read_only`), or another I/O
 * failure (`write_failed`); nothing of that write was stored.
 */
export type StoreErrorKind =
  | 'corrupt'
  | 'foreign'
  | 'too_new'
  | 'not_a_file'
  | 'missing'
  | 'outdated'
  | 'invalid_row'
  | 'invalid_value'
  | 'not_found'
  | 'disk_full'
  | 'read_only'
  | 'write_failed';

export interface StoreErrorData {
  kind: StoreErrorKind;
  /** The database file concerned, when there is one. */
  file?: string;
  /** What was found, in words (`header says 12 pages, file holds 5`). */
  detail: string;
  /** What the person can do about it. */
  hint?: string;
}

const STORE_ERROR_MARK = Symbol.for('home-agent.StoreError');

/** A store failure as a value with fields; `StoreError.isInstance` works across realms. */
export class StoreError extends Error {
  readonly [STORE_ERROR_MARK] = true;
  readonly kind: StoreErrorKind;
  readonly file?: string;
  readonly detail: string;
  readonly hint?: string;

  constructor(data: StoreErrorData, options?: { cause?: unknown }) {
    super(describe(data), options);
    this.name = 'StoreError';
    this.kind = data.kind;
    this.detail = data.detail;
    if (data.file !== undefined) this.file = data.file;
    if (data.hint !== undefined) this.hint = data.hint;
  }

  static isInstance(value: unknown): value is StoreError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[STORE_ERROR_MARK] === true;
  }
}

/** The hint for every file the store refuses to touch. */
export const MOVE_ASIDE_HINT = 'The file was left untouched. Move it aside or choose another --data-dir.';

function describe(data: StoreErrorData): string {
  const where = data.file === undefined ? '' : ` ${data.file}:`;
  const hint = data.hint === undefined ? '' : ` ${data.hint}`;
  return `Store ${data.kind}:${where} ${data.detail}.${hint}`;
}
