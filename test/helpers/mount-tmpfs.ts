import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A tmpfs mounted for one test: a real file system that fills up, or refuses every write. */
export interface MountedTmpfs {
  path: string;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `sizeKb` (read-only when asked) on a fresh folder. Mounting needs root (CI runs
 * as root); elsewhere the result says why it could not, for `it.skipIf` to print.
 */
export function mountTmpfs(options: { sizeKb: number; readOnly?: boolean }): MountedTmpfs | { skip: string } {
  if (process.getuid?.() !== 0)
    return { skip: 'mounting a tmpfs needs root: run the tests as root (CI does), e.g. sudo npx vitest run' };
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-tmpfs-'));
  const mountOptions = `size=${options.sizeKb}k,mode=0755${options.readOnly ? ',ro' : ''}`;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', mountOptions, 'tmpfs', folder], { stdio: 'pipe' });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { skip: `cannot mount a tmpfs here (${stderr || (error as Error).message}): it needs CAP_SYS_ADMIN` };
  }
  let mounted = true;
  return {
    path: folder,
    unmount: () => {
      if (!mounted) return;
      mounted = false;
      execFileSync('umount', ['-l', folder], { stdio: 'pipe' });
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A folder this process cannot write in, filled by `prepare` first. As root (where permission bits
 * do not stop writes) it is a tmpfs remounted read-only; otherwise a folder without write permission.
 */
export function makeReadOnlyFolder(prepare: (folder: string) => void): MountedTmpfs | { skip: string } {
  if (process.getuid?.() === 0) {
    const mounted = mountTmpfs({ sizeKb: 4096 });
    if (!('path' in mounted)) return mounted;
    prepare(mounted.path);
    execFileSync('mount', ['-o', 'remount,ro', mounted.path], { stdio: 'pipe' });
    return mounted;
  }
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-read-only-'));
  prepare(folder);
  execFileSync('chmod', ['-R', 'a-w', folder]);
  return {
    path: folder,
    unmount: () => {
      execFileSync('chmod', ['-R', 'u+w', folder]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
