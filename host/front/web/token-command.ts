import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../config/data-dir.ts';
import {
  readOrCreateToken,
  rotateToken,
  tokenFileOf,
  WEB_TOKEN,
  type TokenFileKind,
} from '../../secrets/token-file.ts';
import { UsageError, type CliIo } from '../command-line/cli-io.ts';

/** A credential besides the web token, chosen by a flag (`token show --NAME`); given by host/front/front-ends.ts. */
export interface OtherCredential {
  /** The flag without its dashes. */
  flag: string;
  kind: TokenFileKind;
  /** What is said on stderr once it was replaced by the one in `file`. */
  rotated(file: string): string;
}

/**
 * `home-agent token`: prints the web token `serve` uses when none is given, or another front end's
 * credential named by its flag (making it the first time); `rotate` replaces it, so whatever held
 * the old one stops working.
 */
export async function runTokenCommand(
  argv: string[],
  io: CliIo,
  others: readonly OtherCredential[] = [],
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      ...Object.fromEntries(others.map((other) => [other.flag, { type: 'boolean' as const }])),
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action = 'show', ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`token ${action} takes no more arguments (got ${rest.join(' ')})`);
  const dataDir = resolveDataDir(values['data-dir']);
  const other = others.find((candidate) => (values as Record<string, unknown>)[candidate.flag] === true);
  const kind = other?.kind ?? WEB_TOKEN;
  if (action === 'show') {
    io.stdout.write(`${readOrCreateToken(dataDir, kind)}\n`);
    return 0;
  }
  if (action === 'rotate') {
    io.stdout.write(`${rotateToken(dataDir, kind)}\n`);
    const file = tokenFileOf(dataDir, kind);
    io.stderr.write(
      other
        ? `${other.rotated(file)}\n`
        : `home-agent: the new token is in ${file}. A running home-agent serve keeps the old one until it restarts; open the address it prints then.\n`,
    );
    return 0;
  }
  throw new UsageError(`unknown token action '${action}' (show or rotate)`);
}
