import { parseArgs } from 'node:util';
import { UsageError, type CliIo } from '../../command-line/cli-io.ts';
import { ApprovalPin } from '../../../approvals/approval-pin.ts';
import { databaseFileOf, resolveDataDir } from '../../../config/data-dir.ts';
import { openDatabase } from '../../../store/open-database.ts';

/**
 * `home-agent pin reset`: removes a forgotten approval PIN and any lock after wrong PINs, at the
 * machine that keeps the data folder (the API never offers it). Exit 0 when done, 2 a wrong command line.
 */
export async function runPinCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  const [action, ...rest] = positionals;
  if (values.help) return 0;
  if (action !== 'reset' || rest.length > 0)
    throw new UsageError(
      action === undefined ? 'pin needs what to do: reset' : `pin ${action}: the only thing to do here is reset`,
    );
  const db = openDatabase({ file: databaseFileOf(resolveDataDir(values['data-dir'])) });
  try {
    const removed = new ApprovalPin({ db }).reset();
    io.stdout.write(
      removed
        ? 'The approval PIN was removed. Calls that need it are refused until you set a new one in Settings (Approval PIN).\n'
        : 'No approval PIN was set (any lock after wrong PINs is gone). Set one in Settings (Approval PIN).\n',
    );
    return 0;
  } finally {
    db.close();
  }
}
