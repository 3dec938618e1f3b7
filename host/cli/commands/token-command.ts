import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../config/data-dir.ts';
import { readOrCreateToken, rotateToken, tokenFileOf, WEB_TOKEN } from '../../web/token-file.ts';
import { MCP_TOKEN } from '../../mcp/server/mcp-token.ts';
import { UsageError, type CliIo } from '../cli-io.ts';
import type { CommandHelp } from '../command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../common-flag-help.ts';

export const TOKEN_HELP: CommandHelp = {
  name: 'token',
  summary: 'show or replace the web app’s token, or MCP clients’ credential',
  usage: ['token [show|rotate] [--mcp] [--data-dir DIR]'],
  description: [
    'The token `serve` uses when none is given is kept in the data folder (web-token, readable by you',
    'only), so the address it prints, a bookmark and an open tab survive a restart. `show` prints it',
    '(making it the first time); `rotate` replaces it in one step: every address and tab holding the',
    'old one stops working once serve restarts. With --mcp, the same for the credential of MCP clients',
    '(mcp-token): it opens `serve --mcp`’s /mcp and nothing else, and the web token does not open /mcp.',
    'A running serve takes a rotated one at once and ends the sessions opened with the old one. A token file',
    'that is a link, a FIFO or a folder, that another user owns or may read, or that is too large is',
    'refused (here and by serve) with the fix: `chmod 600` it, or `rotate`.',
  ].join('\n'),
  options: [
    { flag: '--mcp', text: 'Show or replace the MCP clients’ credential (mcp-token) instead of the web token.' },
    DATA_DIR_OPTION_HELP,
  ],
  examples: [
    { command: 'home-agent token', text: 'The token of this data folder.' },
    { command: 'home-agent token rotate', text: 'A new token (restart serve to use it).' },
    { command: 'home-agent token show --mcp', text: 'The credential MCP clients send to /mcp.' },
    { command: 'home-agent token rotate --mcp', text: 'A new MCP credential; open MCP sessions end.' },
  ],
};

/**
 * `home-agent token`: prints the web token `serve` uses when none is given, or with `--mcp` the MCP
 * clients' credential (making it the first time); `rotate` replaces it, so whatever held the old one stops working.
 */
export async function runTokenCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, mcp: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  const [action = 'show', ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`token ${action} takes no more arguments (got ${rest.join(' ')})`);
  const dataDir = resolveDataDir(values['data-dir']);
  const kind = values.mcp ? MCP_TOKEN : WEB_TOKEN;
  if (action === 'show') {
    io.stdout.write(`${readOrCreateToken(dataDir, kind)}\n`);
    return 0;
  }
  if (action === 'rotate') {
    io.stdout.write(`${rotateToken(dataDir, kind)}\n`);
    io.stderr.write(
      values.mcp
        ? `home-agent: the new MCP credential is in ${tokenFileOf(dataDir, kind)}. A running home-agent serve --mcp takes only it from now on and ends the sessions opened with the old one at the next request it gets: give MCP clients the new one.\n`
        : `home-agent: the new token is in ${tokenFileOf(dataDir, kind)}. A running home-agent serve keeps the old one until it restarts; open the address it prints then.\n`,
    );
    return 0;
  }
  throw new UsageError(`unknown token action '${action}' (show or rotate)`);
}
