import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The full path of an executable on PATH, or undefined. */
export function findExecutable(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder; keep looking.
    }
  }
  return undefined;
}
