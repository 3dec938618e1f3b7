import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The app's data folder: `--data-dir`, else `$HOME_AGENT_DATA_DIR`, else the platform's place
 * (`$XDG_DATA_HOME/home-agent`, `~/Library/Application Support/home-agent`, `%APPDATA%\home-agent`).
 */
export function resolveDataDir(explicit?: string): string {
  if (explicit) return path.resolve(explicit);
  if (process.env.HOME_AGENT_DATA_DIR) return path.resolve(process.env.HOME_AGENT_DATA_DIR);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'home-agent');
  if (process.platform === 'win32')
    return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'home-agent');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'home-agent');
}

/** The SQLite file inside a data folder. */
export function databaseFileOf(dataDir: string): string {
  return path.join(dataDir, 'home-agent.db');
}

/**
 * Creates the data folder (and any missing folder above it) readable by its owner only (0700): it
 * holds the history of the home. A folder that exists is used as it is.
 */
export function createDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}
