import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../config/data-dir.ts';
import { readOrCreateWebToken, rotateWebToken, webTokenFileOf } from '../../web/token-file.ts';
import { UsageError, type CliIo } from '../cli-io.ts';
import type { CommandHelp } from '../command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../common-flag-help.ts';

export const TOKEN_HELP: CommandHelp = {
  name: 'token',
  summary: 'show or replace the web app’s token',
  usage: ['token [show|rotate] [--data-dir DIR]'],
  description: [
    'The token `serve` uses when none is given is kept in the data folder (web-token, readable by you',
    'only), so the address it prints, a bookmark and an open tab survive a restart. `show` prints it',
    '(making it the first time); `rotate` replaces it in one step: every address and tab holding the',
    'old one stops working once serve restarts. A web-token that is a link, a FIFO or a folder, that',
    'another user owns or may read, or that is too large is refused (here and by serve) with the fix:',
    '`chmod 600` it, or `rotate`.',
  ].join('\n'),
  options: [DATA_DIR_OPTION_HELP],
  examples: [
    { command: 'home-agent token', text: 'The token of this data folder.' },
    { command: 'home-agent token rotate', text: 'A new token (restart serve to use it).' },
  ],
};

/**
 * `home-agent token`: prints the web token `serve` uses when none is given (making it the first
 * time); `token rotate` replaces it, so every address and open tab holding the old one stops working.
 */
export async function runTokenCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  const [action = 'show', ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`token ${action} takes no more arguments (got ${rest.join(' ')})`);
  const dataDir = resolveDataDir(values['data-dir']);
  if (action === 'show') {
    io.stdout.write(`${readOrCreateWebToken(dataDir)}\n`);
    return 0;
  }
  if (action === 'rotate') {
    io.stdout.write(`${rotateWebToken(dataDir)}\n`);
    io.stderr.write(
      `home-agent: the new token is in ${webTokenFileOf(dataDir)}. A running home-agent serve keeps the old one until it restarts; open the address it prints then.\n`,
    );
    return 0;
  }
  throw new UsageError(`unknown token action '${action}' (show or rotate)`);
}
