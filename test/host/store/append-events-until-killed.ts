// Child process for the crash test: journals events one by one, printing each sequence number once
// its statement has returned, until the parent kills it (or a bound of 100,000 events is reached).
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: append-events-until-killed.ts <database file>');
const db = openDatabase({ file });
const store = new SqliteConversationStore({ db });
store.ensureConversation('crash', 'Killed mid-turn');
for (let i = 1; i <= 100_000; i += 1) {
  const seq = store.appendEvent({
    type: 'text/delta',
    at: 1_700_000_000_000 + i,
    conversationId: 'crash',
    turnId: 't1',
    step: 1,
    text: `delta ${i} `.repeat(20),
  });
  process.stdout.write(`${seq}\n`);
}
db.close();
