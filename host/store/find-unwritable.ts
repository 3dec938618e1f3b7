import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

function why(code: string | undefined): string {
  if (code === 'EROFS') return 'is on a read-only file system (EROFS)';
  if (code === 'EACCES' || code === 'EPERM') return `is not writable by this user (${code})`;
  return `cannot be written (${code ?? 'unknown error'})`;
}

function writeProblem(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return `${path} ${why((error as NodeJS.ErrnoException).code)}`;
  }
}

/**
 * Why the store file cannot be created or written, in words naming the path and the cause, or
 * undefined when it can: the file itself, else its folder, else the nearest existing folder above
 * it (where the missing ones would be created). SQLite alone says only "unable to open database file".
 */
export function findUnwritable(file: string): string | undefined {
  if (existsSync(file)) {
    const problem = writeProblem(file) ?? writeProblem(dirname(file));
    return problem === undefined ? undefined : `${problem}, so the database cannot be written`;
  }
  let folder = dirname(file);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  const problem = writeProblem(folder);
  return problem === undefined ? undefined : `${problem}, so the database cannot be created`;
}
