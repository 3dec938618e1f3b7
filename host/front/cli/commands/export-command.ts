import { parseArgs } from 'node:util';
import { UsageError, type CliIo } from '../../command-line/cli-io.ts';
import { exportConversations } from '../../../store/export-conversations.ts';
import { findUnplacedRows } from '../../../store/orphaned-rows.ts';
import { readStoreSnapshot } from '../read-store-snapshot.ts';
import type { InvalidRowReport } from '../../../store/parse-stored-row.ts';

/**
 * `home-agent export`: writes the conversations of the data folder (or one) with their calls,
 * results and timings as one JSON document on stdout; rows no conversation or turn places, and the
 * events of calls no `batch/start` declares, go under `unplaced`, counted on stderr. Read-only: the store is opened read-only and never written. Exit
 * status 0, 1 when the store cannot be read or holds nothing of the conversation named, 2 for a
 * wrong command line. A stored row that no longer validates is left out and named on stderr.
 */
export async function runExportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      conversation: { type: 'string' },
      format: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.format !== undefined && values.format !== 'json')
    throw new UsageError(`--format must be json, got '${values.format}'`);
  const onInvalidRow = (report: InvalidRowReport): void =>
    void io.stderr.write(
      `home-agent export: left out row ${report.key} of ${report.table}, which does not validate: ${report.detail}\n`,
    );
  const only = values.conversation !== undefined ? { conversationId: values.conversation } : {};
  const document = await readStoreSnapshot({
    dataDir: values['data-dir'],
    onInvalidRow,
    read: ({ db, store }) =>
      exportConversations({ store, ...only, unplaced: findUnplacedRows({ db, ...only, onInvalidRow }) }),
  });
  const { unplaced } = document;
  if (unplaced !== undefined) {
    const undeclared = unplaced.events.filter((row) => row.why === 'no_batch_start').length;
    const placeless = unplaced.events.length - undeclared;
    if (unplaced.messages.length + placeless > 0)
      io.stderr.write(
        `home-agent export: ${unplaced.messages.length} message(s) and ${placeless} event(s) belong to no conversation or no turn of one (its row or its turn/start is missing); they are under "unplaced"\n`,
      );
    if (undeclared > 0)
      io.stderr.write(
        `home-agent export: ${undeclared} event(s) of tool calls that no batch/start of their turn declares (the journal did not record what ran); they are under "unplaced"\n`,
      );
  }
  if (values.conversation !== undefined && document.conversations.length === 0 && unplaced === undefined) {
    io.stderr.write(
      `home-agent export: no conversation has the id ${values.conversation} (without --conversation, every conversation is exported)\n`,
    );
    return 1;
  }
  io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  return 0;
}
