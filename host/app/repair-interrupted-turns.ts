import type { AgentEvent } from '../../core/events/agent-event.ts';
import { batchesOfTurn, emptyCallRecords, foldCallRecords } from '../../core/events/fold-call-records.ts';
import { answerDanglingCalls, danglingCalls } from '../../core/agent/answer-dangling-calls.ts';
import { renderOutcomeForModel } from '../../core/tools/tool-result.ts';
import type { CallOutcome } from '../../core/tools/call-outcome.ts';
import type { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';

type ToolEnd = Extract<AgentEvent, { type: 'tool/end' }>;

const STOPPED_WORDS = 'Home Agent stopped during this turn';
const STOPPED = `${STOPPED_WORDS}, so it did not finish.`;

/**
 * A process killed during a turn leaves a `turn/start` without `turn/end`, and maybe a batch whose
 * calls never ended and an assistant message whose calls have no results. At start-up each such
 * turn is closed in the journal (every open call gets its `tool/end` — `unknown` if it had started,
 * `not_sent` if not — then its batch, step and turn end, as aborted; calls started while the reply
 * streamed get the assistant message the crash kept from being stored), and every unanswered call in
 * the messages gets its result from what the journal holds: its recorded `tool/end`, else the
 * outcome just written. So every front end shows the turn as over, and the history stays valid for
 * every provider (each result it writes is marked `writtenBy: 'repair'`). A turn another process is
 * still running (`stillRunning`: it waits on a question in the store) is not closed. Returns how many
 * turns and calls it closed.
 */
export function repairInterruptedTurns(
  store: SqliteConversationStore,
  now: () => number = Date.now,
  stillRunning: (turnId: string) => boolean = () => false,
): { turns: number; calls: number } {
  const unfinished = store.unfinishedTurns().filter((turn) => !stillRunning(turn.turnId));
  const conversations = new Set(unfinished.map((turn) => turn.conversationId));
  for (const { conversationId, turnId } of unfinished) {
    const events = store.loadEvents(conversationId).filter((event) => event.turnId === turnId);
    const closing = closingEvents(events, now());
    for (const event of closing) store.appendEvent({ ...event, conversationId, turnId });
    // A reply the crash cut while its early calls ran never stored its assistant message: store it
    // with those calls (their arguments came on their early tool/start), so each gets its answer.
    for (const declared of closing)
      if (declared.type === 'batch/start' && declared.reason.includes('while the reply streamed'))
        store.appendMessage(conversationId, {
          role: 'assistant',
          text: events
            .flatMap((event) => (event.type === 'text/delta' && event.step === declared.step ? [event.text] : []))
            .join(''),
          toolCalls: declared.calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
        });
  }
  let calls = 0;
  for (const conversationId of conversations) calls += answerFromJournal(store, conversationId);
  return { turns: unfinished.length, calls };
}

/**
 * The events that close a turn's open calls, batches and steps, then the turn, in that order,
 * read through core's fold of call records. A batch whose reply never ended (its calls started
 * while it streamed, each early `tool/start` carrying its arguments) is declared first, serial:
 * those calls ran one at a time.
 */
function closingEvents(events: readonly AgentEvent[], at: number): AgentEvent[] {
  const closing: AgentEvent[] = [];
  const first = events[0];
  if (first === undefined) return closing;
  const base = { at, conversationId: '', turnId: '' };
  const records = foldCallRecords(emptyCallRecords, events);
  for (const batch of batchesOfTurn(records, first.conversationId, first.turnId)) {
    if (batch.endedAt !== undefined) continue;
    if (batch.mode === undefined) {
      // The message the crash kept from being stored is journaled as it will be stored (below).
      closing.push({
        ...base,
        type: 'message/assistant',
        step: batch.step,
        text: events
          .flatMap((event) => (event.type === 'text/delta' && event.step === batch.step ? [event.text] : []))
          .join(''),
        toolCalls: batch.calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
      });
      closing.push({
        ...base,
        type: 'batch/start',
        step: batch.step,
        batchId: batch.id,
        mode: 'serial',
        reason: `serial: ${STOPPED_WORDS} while the reply streamed; only the calls that had started ran, one at a time`,
        calls: batch.calls.map((call) => ({
          index: call.index,
          callId: call.callId,
          name: call.name,
          args: call.args,
        })),
      });
    }
    let executed = 0;
    for (const call of batch.calls) {
      if (call.status === 'done') {
        if (call.ok) executed++;
        continue;
      }
      const outcome: CallOutcome = call.status === 'running' ? 'unknown' : 'not_sent';
      closing.push({
        ...base,
        type: 'tool/end',
        batchId: batch.id,
        callId: call.callId,
        name: call.name,
        index: call.index,
        ok: false,
        error: {
          reason: 'aborted',
          detail:
            outcome === 'unknown'
              ? `${STOPPED} ${call.name} had started: it may have acted.`
              : `${STOPPED} ${call.name} had not started.`,
        },
        outcome,
        queuedMs: 0,
        runMs: 0,
        startedAt: at,
        endedAt: at,
      });
    }
    closing.push({ ...base, type: 'batch/end', batchId: batch.id, wallMs: 0, executed });
  }
  const openSteps = events.filter(
    (event) =>
      event.type === 'step/start' && !events.some((other) => other.type === 'step/end' && other.step === event.step),
  );
  for (const step of openSteps)
    if (step.type === 'step/start') closing.push({ ...base, type: 'step/end', step: step.step });
  closing.push({ ...base, type: 'turn/end', reason: 'aborted', error: STOPPED });
  return closing;
}

/**
 * Appends a result, from its `tool/end` in the turn that made the message, for every unanswered
 * call of the conversation's last assistant message (a killed batch's calls: their results were to follow). Older gaps, left by
 * versions before this repair, are answered when a request is built (`answerDanglingCalls`).
 */
function answerFromJournal(store: SqliteConversationStore, conversationId: string): number {
  const messages = store.loadMessages(conversationId);
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const last = messages[lastAssistant];
  if (last?.role !== 'assistant') return 0;
  const tail = messages.slice(lastAssistant);
  const dangling = danglingCalls(tail);
  if (dangling.length === 0) return 0;
  // Only the journal of the turn that made this message speaks for its calls: ids repeat across
  // turns (some servers number calls per reply), and another turn's result must never answer them.
  const events = store.loadEvents(conversationId);
  const ids = last.toolCalls.map((call) => call.id).join('\n');
  const made = events.findLast(
    (event) =>
      (event.type === 'message/assistant' && event.toolCalls.map((call) => call.id).join('\n') === ids) ||
      (event.type === 'batch/start' && event.calls.map((call) => call.callId).join('\n') === ids),
  );
  const ends = new Map<string, ToolEnd>(
    events
      .filter((event): event is ToolEnd => event.type === 'tool/end' && event.turnId === made?.turnId)
      .map((event) => [event.callId, event]),
  );
  const repaired = answerDanglingCalls(tail, (call) => {
    const end = ends.get(call.id);
    if (!end) return answerOf({ ok: false, outcome: 'not_sent', detail: `${STOPPED} ${call.name} had not started.` });
    const outcome = end.outcome ?? (end.ok ? 'done' : 'failed');
    return {
      content: renderOutcomeForModel(
        end.ok ? { ok: true, value: end.result } : { ok: false, error: end.error ?? { reason: 'aborted' } },
        outcome,
      ),
      isError: !end.ok,
    };
  });
  // Results of the last message's calls follow it in call order; those already stored stay first.
  // Each says it was written here, so `verify` counts it as journaled even when no tool/end records it.
  for (const message of repaired.slice(tail.length))
    store.appendMessage(conversationId, message.role === 'tool' ? { ...message, writtenBy: 'repair' } : message);
  return dangling.length;
}

function answerOf(options: { ok: false; outcome: CallOutcome; detail: string }): { content: string; isError: boolean } {
  return {
    content: renderOutcomeForModel(
      { ok: false, error: { reason: 'aborted', detail: options.detail } },
      options.outcome,
    ),
    isError: true,
  };
}
