import type { AgentEvent } from '../../core/events/agent-event.ts';
import { batchesOfTurn, emptyCallRecords, foldCallRecords } from '../../core/events/fold-call-records.ts';
import { answerDanglingCalls, danglingCalls } from '../../core/agent/answer-dangling-calls.ts';
import { renderOutcomeForModel } from '../../core/tools/tool-result.ts';
import type { CallOutcome } from '../../core/tools/call-outcome.ts';
import type { AssistantMessage, ConversationMessage } from '../../core/models/conversation-message.ts';
import type { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';

type ToolEnd = Extract<AgentEvent, { type: 'tool/end' }>;
type AssistantEvent = Extract<AgentEvent, { type: 'message/assistant' }>;

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
    const last = store.loadMessages(conversationId).at(-1);
    for (const part of closingParts(events, now(), last))
      if ('event' in part) store.appendEvent({ ...part.event, conversationId, turnId });
      else store.appendMessage(conversationId, part.message);
  }
  let calls = 0;
  for (const conversationId of conversations) calls += answerFromJournal(store, conversationId);
  return { turns: unfinished.length, calls };
}

/** What closing a turn writes, in order: a journal event, or the assistant message a crash kept from being stored. */
type ClosingPart = { event: AgentEvent } | { message: AssistantMessage };

/**
 * The events that close a turn's open calls, batches and steps, then the turn, in that order,
 * read through core's fold of call records. A batch whose reply never ended (its calls started
 * while it streamed, each early `tool/start` carrying its arguments) is declared first, serial:
 * those calls ran one at a time. Its assistant message is written as a step writes it — journaled,
 * then stored, then the batch declared — so a crash between any two (the step's or this repair's)
 * leaves what the next start completes: a reply whose `message/assistant` is journaled keeps all its
 * calls (those never started are `not_sent`) and is stored once, unless `last` (the conversation's
 * last stored message) already is it.
 */
function closingParts(events: readonly AgentEvent[], at: number, last: ConversationMessage | undefined): ClosingPart[] {
  const closing: ClosingPart[] = [];
  const close = (event: AgentEvent): void => void closing.push({ event });
  const first = events[0];
  if (first === undefined) return closing;
  const base = { at, conversationId: '', turnId: '' };
  const records = foldCallRecords(emptyCallRecords, events);
  for (const batch of batchesOfTurn(records, first.conversationId, first.turnId)) {
    if (batch.endedAt !== undefined) continue;
    let calls: { index: number; callId: string; name: string; args: Record<string, unknown> }[] = batch.calls;
    if (batch.mode === undefined) {
      const replied = events.findLast(
        (event): event is AssistantEvent => event.type === 'message/assistant' && event.step === batch.step,
      );
      const message: AssistantMessage = replied
        ? { role: 'assistant', text: replied.text, toolCalls: replied.toolCalls }
        : {
            role: 'assistant',
            text: events
              .flatMap((event) => (event.type === 'text/delta' && event.step === batch.step ? [event.text] : []))
              .join(''),
            toolCalls: batch.calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
          };
      if (!replied) close({ ...base, type: 'message/assistant', step: batch.step, ...message });
      if (!(last?.role === 'assistant' && idsOf(last.toolCalls) === idsOf(message.toolCalls)))
        closing.push({ message });
      calls = message.toolCalls.map((call, index) => ({ index, callId: call.id, name: call.name, args: call.args }));
      close({
        ...base,
        type: 'batch/start',
        step: batch.step,
        batchId: batch.id,
        mode: 'serial',
        reason: `serial: ${STOPPED_WORDS} while the reply streamed; only the calls that had started ran, one at a time`,
        calls,
      });
    }
    let executed = 0;
    for (const declared of calls) {
      const call = batch.calls.find((known) => known.callId === declared.callId);
      if (call?.status === 'done') {
        if (call.ok) executed++;
        continue;
      }
      const outcome: CallOutcome = call?.status === 'running' ? 'unknown' : 'not_sent';
      close({
        ...base,
        type: 'tool/end',
        batchId: batch.id,
        callId: declared.callId,
        name: declared.name,
        index: declared.index,
        ok: false,
        error: {
          reason: 'aborted',
          detail:
            outcome === 'unknown'
              ? `${STOPPED} ${declared.name} had started: it may have acted.`
              : `${STOPPED} ${declared.name} had not started.`,
        },
        outcome,
        queuedMs: 0,
        runMs: 0,
        startedAt: at,
        endedAt: at,
      });
    }
    close({ ...base, type: 'batch/end', batchId: batch.id, wallMs: 0, executed });
  }
  const openSteps = events.filter(
    (event) =>
      event.type === 'step/start' && !events.some((other) => other.type === 'step/end' && other.step === event.step),
  );
  for (const step of openSteps) if (step.type === 'step/start') close({ ...base, type: 'step/end', step: step.step });
  close({ ...base, type: 'turn/end', reason: 'aborted', error: STOPPED });
  return closing;
}

/** The calls' ids, in order, as one string: what says two records of a reply are the same message. */
function idsOf(calls: readonly { id: string }[]): string {
  return calls.map((call) => call.id).join('\n');
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
  const ids = idsOf(last.toolCalls);
  const made = events.findLast(
    (event) =>
      (event.type === 'message/assistant' && idsOf(event.toolCalls) === ids) ||
      (event.type === 'batch/start' && idsOf(event.calls.map((call) => ({ id: call.callId }))) === ids),
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
        end.reaches !== undefined ? { reaches: end.reaches } : {},
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
