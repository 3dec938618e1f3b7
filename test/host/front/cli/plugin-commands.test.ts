// A plugin's command is declared in its own folder of the CLI and spread into the command table by the
// composition root, never written there by hand; `home-agent --help` and the command's own help stay.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMANDS, main } from '../../../../host/front/front-ends.ts';
import { MCP_CLIENT_COMMANDS } from '../../../../host/front/cli/mcp-client/mcp-client-commands.ts';
import { pluginCommandsOf } from '../../../../host/front/cli/plugin-commands.ts';
import { REPO_ROOT } from '../../../helpers/compiled-entries.ts';

const FRONT_ENDS = readFileSync(path.join(REPO_ROOT, 'host/front/front-ends.ts'), 'utf8');

/** The command names front-ends.ts writes as keys of its own (two-space indented `name:`). */
const ownKeys = [...FRONT_ENDS.matchAll(/^ {2}'?([\w-]+)'?:/gm)].map((match) => match[1]!);

async function printed(argv: string[]): Promise<{ status: number; text: string }> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const status = await main(argv, { stdout, stderr: stdout });
  return { status, text };
}

describe("the built-in plugins' commands", () => {
  it('has no literal `plugins` key in the command table: the MCP-client plugin declares it', () => {
    expect(ownKeys).toContain('ask');
    expect(ownKeys).not.toContain('plugins');
    expect(FRONT_ENDS).not.toMatch(/plugins-(command|help)\.ts/);
    expect(COMMANDS.plugins).toBe(MCP_CLIENT_COMMANDS.plugins);
  });

  it('lets no plugin command hide a front end’s own, nor another plugin’s', () => {
    for (const name of Object.keys(MCP_CLIENT_COMMANDS)) expect(ownKeys).not.toContain(name);
    expect(() => pluginCommandsOf([MCP_CLIENT_COMMANDS, { plugins: MCP_CLIENT_COMMANDS.plugins! }])).toThrow(
      "two commands are named 'plugins'",
    );
  });

  it('lists `plugins` in `home-agent --help` where it was (after mcp, before bridge), and its own help', async () => {
    const overview = await printed(['--help']);
    expect(overview.status).toBe(0);
    const names = [...overview.text.matchAll(/^ {2}(\S+) {2,}/gm)].map((match) => match[1]);
    expect(names.slice(names.indexOf('mcp'), names.indexOf('mcp') + 3)).toEqual(['mcp', 'plugins', 'bridge']);
    expect(overview.text).toMatch(/^ {2}plugins +sign in to a remote MCP server \(OAuth 2\.1\), or sign out$/m);
    const own = await printed(['plugins', '--help']);
    expect(own.status).toBe(0);
    expect(own.text).toContain('plugins login mcp-NAME');
    expect(own.text).toContain('plugins logout mcp-NAME');
  });
});
