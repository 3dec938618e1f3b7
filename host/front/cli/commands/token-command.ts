import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../../config/data-dir.ts';
import { readOrCreateToken, rotateToken, tokenFileOf, WEB_TOKEN } from '../../web/token-file.ts';
import { MCP_TOKEN } from '../../mcp/mcp-token.ts';
import { UsageError, type CliIo } from '../cli-io.ts';

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
