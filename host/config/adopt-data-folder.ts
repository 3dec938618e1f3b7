import { cpSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { lstatIfPresent } from '../../devices/files/file-kind.ts';
import path from 'node:path';
import { createDataDir, databaseFileOf } from './data-dir.ts';
import { isTokenFileName, WEB_TOKEN_FILE } from './token-file-name.ts';

/** The store with its WAL companions. */
const STORE_FILES = ['home-agent.db', 'home-agent.db-wal', 'home-agent.db-shm'];

/**
 * The files of a home that `folder` holds, in the order they move: the store, the credentials the
 * front ends keep (the web token first), the plugins' files, the secrets.
 */
function homeFilesIn(folder: string, pluginFiles: readonly string[]): string[] {
  const tokens = readdirSync(folder)
    .filter((name) => isTokenFileName(name) && name !== WEB_TOKEN_FILE)
    .sort();
  return [...STORE_FILES, WEB_TOKEN_FILE, ...tokens, ...pluginFiles, 'secrets.json'];
}

/** What adoptDataFolder did, in a sentence for the log (undefined: nothing to say). */
export type AdoptionReport = string | undefined;

/**
 * Moves a home kept in an older folder (`from`, e.g. the desktop window's own folder of earlier
 * versions) into the one data folder every front end uses (`to`), once: only when `from` holds a
 * store and `to` holds none. When both hold one, nothing moves and the report says which is used.
 * Only the home's own files move; whatever else `from` holds (a browser engine's caches) stays.
 */
export function adoptDataFolder(options: {
  from: string;
  to: string;
  /** The files the plugins keep in the data folder (host/plugins/builtin/). */
  pluginFiles?: readonly string[];
}): AdoptionReport {
  const from = path.resolve(options.from);
  const to = path.resolve(options.to);
  if (from === to || !existsSync(databaseFileOf(from))) return undefined;
  if (existsSync(databaseFileOf(to)))
    return `${from} also holds a home (from an earlier version); the one in ${to} is used and the other was left as it is`;
  createDataDir(to);
  const moved: string[] = [];
  for (const name of homeFilesIn(from, options.pluginFiles ?? [])) {
    const source = path.join(from, name);
    if (lstatIfPresent(source) === undefined) continue;
    moveFile(source, path.join(to, name));
    moved.push(name);
  }
  return `moved this home (${moved.join(', ')}) from ${from} to ${to}, the one data folder of the window and the CLI`;
}

/** A rename, or a copy then a removal when the two folders are on different file systems. */
function moveFile(source: string, target: string): void {
  try {
    renameSync(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(source, target, { preserveTimestamps: true, errorOnExist: true, force: false });
    rmSync(source);
  }
}
