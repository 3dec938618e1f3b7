import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptDataFolder } from '../../../host/config/adopt-data-folder.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { BUILTIN_PLUGIN_DATA_FILES } from '../../../host/plugins/builtin/builtin-plugin-run-options.ts';
import { MCP_TOKEN } from '../../../host/front/mcp/mcp-token.ts';
import { isTokenFileName } from '../../../host/config/token-file-name.ts';
import { WEB_TOKEN } from '../../../host/secrets/token-file.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('adoptDataFolder, with what front ends and plugins declare', () => {
  it('moves every front end’s credential file and the plugins’ files, in the order they always moved', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'home-agent-adopt-'));
    folders.push(root);
    const from = path.join(root, 'old');
    const to = path.join(root, 'new');
    mkdirSync(from, { recursive: true });
    openDatabase({ file: path.join(from, 'home-agent.db') }).close();
    for (const name of ['web-token', 'mcp-token', 'mcp.json', 'secrets.json', 'Trust Tokens', 'Preferences'])
      writeFileSync(path.join(from, name), 'x', { mode: 0o600 });
    expect(adoptDataFolder({ from, to, pluginFiles: BUILTIN_PLUGIN_DATA_FILES })).toBe(
      `moved this home (home-agent.db, web-token, mcp-token, mcp.json, secrets.json) from ${from} to ${to}, the one data folder of the window and the CLI`,
    );
    expect(readdirSync(from).sort()).toEqual(['Preferences', 'Trust Tokens']);
  });

  it('knows a credential by its file name alone', () => {
    expect([WEB_TOKEN, MCP_TOKEN].every((kind) => isTokenFileName(kind.fileName))).toBe(true);
    expect(['Trust Tokens', 'secrets.json', 'mcp.json', 'token'].some(isTokenFileName)).toBe(false);
  });
});
