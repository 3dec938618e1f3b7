// Whether `npm start` must build the UI again: the build in dist/renderer is older than a file the
// renderer bundle may include. Plain JavaScript: `npm start` runs before any TypeScript loader.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the renderer bundle is built from: its own folder, the layers below it, and the build's settings. */
export const UI_INPUTS = [
  'renderer',
  'host/contract',
  'core',
  'devices',
  'vite.renderer.config.ts',
  'package-lock.json',
];

/** The build's own page: written last by vite, so its time is the build's. */
const BUILT_PAGE = 'dist/renderer/index.html';

function newestFile(root, entry) {
  const full = path.join(root, entry);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return undefined;
  }
  if (!stat.isDirectory()) return { file: entry, mtimeMs: stat.mtimeMs };
  let newest;
  for (const name of readdirSync(full, { recursive: true, encoding: 'utf8' })) {
    const fileStat = statSync(path.join(full, name), { throwIfNoEntry: false });
    if (fileStat?.isFile() && (newest === undefined || fileStat.mtimeMs > newest.mtimeMs))
      newest = { file: path.join(entry, name).split(path.sep).join('/'), mtimeMs: fileStat.mtimeMs };
  }
  return newest;
}

/**
 * `{ fresh: true }` when dist/renderer was built after every input changed, else `{ fresh: false,
 * reason }` naming why it is built again (no build yet, or the newest input that changed since).
 */
export function uiBuildState(root) {
  const built = statSync(path.join(root, BUILT_PAGE), { throwIfNoEntry: false });
  if (!built) return { fresh: false, reason: 'no build yet' };
  for (const entry of UI_INPUTS) {
    const newest = newestFile(root, entry);
    if (newest && newest.mtimeMs > built.mtimeMs)
      return { fresh: false, reason: `${newest.file} changed since the last build` };
  }
  return { fresh: true };
}
