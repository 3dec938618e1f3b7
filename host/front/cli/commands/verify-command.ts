import { parseArgs } from 'node:util';
import type { CliIo } from '../../command-line/cli-io.ts';
import { verifyStore, type UnplacedEvent, type VerifyReport } from '../../../store/verify-store.ts';
import { readStoreSnapshot } from '../read-store-snapshot.ts';
import type { InvalidRowReport } from '../../../store/parse-stored-row.ts';

/**
 * `home-agent verify`: checks the data folder's store without writing to it — SQLite's integrity
 * and foreign key checks, every turn started and closed, every event placed (a call's events
 * declared by its batch/start), every message in the journal, every tool
 * call answered in the messages, and every step's request header rebuilt from what it stored. Exit 0 only when all hold; 1 otherwise (or when the store
 * cannot be read); 2 for a wrong command line. `--json` prints the report as one JSON object.
 */
export async function runVerifyCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  // A set: a row the store and the unplaced check both read is named once.
  const invalid = new Set<string>();
  const onInvalidRow = (row: InvalidRowReport): void =>
    void invalid.add(`row ${row.key} of ${row.table}: ${row.detail}`);
  const { report, file } = await readStoreSnapshot({
    dataDir: values['data-dir'],
    olderSchema: true,
    onInvalidRow,
    read: async ({ db, store, file }) => ({ report: await verifyStore({ db, store, onInvalidRow }), file }),
  });
  const invalidRows = [...invalid];
  const ok = report.ok && invalidRows.length === 0;
  if (values.json) io.stdout.write(`${JSON.stringify({ ...report, ok, invalidRows, file })}\n`);
  else io.stdout.write(describeReport({ report, invalidRows, file, ok }));
  return ok ? 0 : 1;
}

function describeReport(options: { report: VerifyReport; invalidRows: string[]; file: string; ok: boolean }): string {
  const { report, invalidRows } = options;
  const lines = [`Verifying ${options.file} (read-only)`];
  lines.push(
    report.integrity.length === 0
      ? 'ok      integrity_check'
      : `FAILED  integrity_check: ${report.integrity.join('; ')}`,
  );
  if (invalidRows.length > 0)
    lines.push(
      `FAILED  ${invalidRows.length} stored row(s) do not validate:`,
      ...invalidRows.map((row) => `          ${row}`),
    );
  lines.push(
    report.foreignKeys.length === 0
      ? 'ok      foreign_key_check'
      : `FAILED  foreign_key_check: ${sum(report.foreignKeys.map((problem) => problem.rows))} row(s) name a row that does not exist:`,
    ...report.foreignKeys.map(
      (problem) =>
        `          ${problem.rows} row(s) of ${problem.table} name ${problem.parent} ${Object.entries(problem.key)
          .map(([column, value]) => `${column}=${String(value)}`)
          .join(', ')}, which does not exist`,
    ),
  );
  lines.push(
    report.openTurns.length === 0
      ? 'ok      every turn is closed'
      : `FAILED  ${report.openTurns.length} turn(s) have no end (start Home Agent once to close them, or a turn is running):`,
    ...report.openTurns.map((turn) => `          conversation ${turn.conversationId}, turn ${turn.turnId}`),
  );
  lines.push(
    report.turnsWithoutStart.length === 0
      ? 'ok      every turn in the journal has its turn/start'
      : `FAILED  ${report.turnsWithoutStart.length} turn(s) in the journal have no turn/start (deleted, or the journal was edited):`,
    ...report.turnsWithoutStart.map(
      (turn) => `          conversation ${turn.conversationId}, turn ${turn.turnId}: ${turn.events} event(s)`,
    ),
  );
  lines.push(
    report.unplacedEvents.length === 0
      ? 'ok      every event has its place (a call’s events, its batch/start)'
      : `FAILED  ${report.unplacedEvents.length} event(s) export cannot place (under "unplaced"):`,
    ...report.unplacedEvents.map((event) => `          ${describeUnplaced(event)}`),
  );
  lines.push(
    report.journalGaps.length === 0
      ? 'ok      every message is in the journal'
      : `FAILED  journal gaps: ${report.journalGaps.length} message(s) that no journal event records:`,
    ...describeGaps(report.journalGaps).map((line) => `          ${line}`),
  );
  lines.push(
    report.unansweredCalls.length === 0
      ? 'ok      every tool call is answered once, right after its message'
      : `FAILED  ${report.unansweredCalls.length} tool call problem(s) in the messages:`,
    ...report.unansweredCalls.map(
      (problem) =>
        `          conversation ${problem.conversationId}, message ${problem.position + 1}: ${problem.callId} ${problem.problem.replaceAll('_', ' ')}`,
    ),
  );
  const { steps } = report;
  const counted = `${steps.verified} step(s) rebuilt, ${steps.unverifiable} unverifiable (recorded before headers named their stored parts)`;
  lines.push(
    steps.mismatched.length === 0
      ? `ok      request headers: ${counted}`
      : `FAILED  request headers: ${steps.mismatched.length} step(s) do not rebuild; ${counted}:`,
    ...steps.mismatched.map(
      (step) =>
        `          conversation ${step.conversationId}, turn ${step.turnId}, step ${step.step}: ${step.differences.join('; ')}`,
    ),
  );
  lines.push(options.ok ? 'All checks hold.' : 'Some checks failed.');
  return `${lines.join('\n')}\n`;
}

const UNPLACED_WHY: Record<UnplacedEvent['why'], string> = {
  no_conversation: 'its conversation does not exist',
  no_turn_start: 'its turn has no turn/start',
  no_batch_start: 'no batch/start of its turn declares the call (what ran is not in the journal)',
};

function describeUnplaced(event: UnplacedEvent): string {
  const call =
    event.callId !== undefined ? ` of call ${event.callId}${event.name !== undefined ? ` (${event.name})` : ''}` : '';
  return `conversation ${event.conversationId}, event #${event.seq} ${event.type}${call}, turn ${event.turnId}: ${UNPLACED_WHY[event.why]}`;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** One line per run of consecutive messages of a conversation with the same gap (a wiped journal is a line a turn, not a line a message). */
function describeGaps(gaps: VerifyReport['journalGaps']): string[] {
  const lines: string[] = [];
  let run: { first: (typeof gaps)[number]; last: (typeof gaps)[number] } | undefined;
  const close = (): void => {
    if (run === undefined) return;
    const { first, last } = run;
    const which =
      first.seq === last.seq ? `message #${first.seq} (${first.role})` : `messages #${first.seq}–#${last.seq}`;
    lines.push(`conversation ${first.conversationId}, ${which}: ${first.detail}`);
  };
  for (const gap of gaps) {
    if (
      run !== undefined &&
      gap.conversationId === run.last.conversationId &&
      gap.detail === run.last.detail &&
      gap.seq === run.last.seq + 1
    )
      run.last = gap;
    else {
      close();
      run = { first: gap, last: gap };
    }
  }
  close();
  return lines;
}
