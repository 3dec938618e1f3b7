// Child process of full-disk.test.ts: journals events until a write fails (the parent runs it
// under a file-size limit), printing {"seq":n} for each event the store said it journaled and
// {"error":{…}} for the failure, then exits 0.
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { fullDiskDelta } from './full-disk-delta.ts';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: append-until-write-fails.ts <database file>');
const db = openDatabase({ file });
const store = new SqliteConversationStore({ db });
store.ensureConversation('full', 'A file-size limit');
for (let index = 1; index <= 5_000; index += 1) {
  try {
    const seq = store.appendEvent(fullDiskDelta(index));
    process.stdout.write(`${JSON.stringify({ seq })}\n`);
  } catch (error) {
    const { name, message } = error as Error;
    const { kind, file: errorFile } = error as { kind?: string; file?: string };
    process.stdout.write(`${JSON.stringify({ error: { name, message, kind, file: errorFile } })}\n`);
    break;
  }
}
db.close();
