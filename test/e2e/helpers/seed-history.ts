// A long conversation written straight into a fresh store (not run turn by turn): what the UI
// bench's history entry and the long-history spec open.
import { mkdirSync } from 'node:fs';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';

/** The seeded conversation's id. */
export const HISTORY_CONVERSATION = 'bench-history';

/** Writes `batches` finished turns (each: a reply with 4 calls, their results, then a closing text). */
export function seedHistory(dataDir: string, batches: number): void {
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    const store = new SqliteConversationStore({ db });
    db.transaction(() => {
      store.ensureConversation(HISTORY_CONVERSATION, 'A long history');
      let at = Date.UTC(2026, 0, 1);
      for (let turn = 0; turn < batches; turn += 1) {
        const turnId = `turn-${turn}`;
        const where = { conversationId: HISTORY_CONVERSATION, turnId };
        const calls = [0, 1, 2, 3].map((index) => ({
          index,
          callId: `call-${turn}-${index}`,
          name: index % 2 === 0 ? 'lamp__set' : 'thermometer__read',
          args:
            index % 2 === 0
              ? { device_id: `lamp-${1 + (index >> 1)}`, on: turn % 2 === 0 }
              : { device_id: 'thermometer-1' },
        }));
        const text = `Turn ${turn}: switching the lamps and reading the temperature.`;
        const events: AgentEvent[] = [
          { ...where, at: (at += 1), type: 'turn/start', text: `Turn ${turn}, lamps and temperature`, model: 'seeded' },
          { ...where, at: (at += 1), type: 'step/start', step: 1 },
          { ...where, at: (at += 5), type: 'text/delta', step: 1, text },
          {
            ...where,
            at: (at += 1),
            type: 'message/assistant',
            step: 1,
            text,
            toolCalls: calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
          },
          { ...where, at: (at += 1), type: 'batch/open', batchId: `batch-${turn}`, step: 1 },
          {
            ...where,
            at,
            type: 'batch/start',
            batchId: `batch-${turn}`,
            step: 1,
            mode: 'parallel',
            reason: 'parallel: all 4 calls are parallel-safe',
            calls,
          },
          ...calls.map((call): AgentEvent => ({
            ...where,
            at: at + 1,
            type: 'tool/start',
            batchId: `batch-${turn}`,
            ...call,
          })),
          ...calls.map((call): AgentEvent => ({
            ...where,
            at: at + 250,
            type: 'tool/end',
            batchId: `batch-${turn}`,
            callId: call.callId,
            name: call.name,
            index: call.index,
            ok: true,
            result: { device_id: call.args.device_id, result: { ok: true } },
            outcome: 'done',
            queuedMs: 1,
            runMs: 249,
            startedAt: at + 1,
            endedAt: at + 250,
          })),
          { ...where, at: (at += 251), type: 'batch/end', batchId: `batch-${turn}`, wallMs: 251, executed: 4 },
          { ...where, at: (at += 1), type: 'step/end', step: 1 },
          { ...where, at: (at += 1), type: 'step/start', step: 2 },
          { ...where, at: (at += 5), type: 'message/assistant', step: 2, text: 'Done.', toolCalls: [] },
          { ...where, at: (at += 1), type: 'step/end', step: 2 },
          { ...where, at: (at += 1), type: 'turn/end', reason: 'done' },
        ];
        store.appendMessage(HISTORY_CONVERSATION, { role: 'user', text: `Turn ${turn}, lamps and temperature` });
        store.appendMessage(HISTORY_CONVERSATION, {
          role: 'assistant',
          text,
          toolCalls: calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
        });
        for (const call of calls)
          store.appendMessage(HISTORY_CONVERSATION, {
            role: 'tool',
            toolCallId: call.callId,
            toolName: call.name,
            content: '{"ok":true}',
            isError: false,
          });
        store.appendMessage(HISTORY_CONVERSATION, { role: 'assistant', text: 'Done.', toolCalls: [] });
        for (const event of events) store.appendEvent(event);
        at += 10_000;
      }
    })();
  } finally {
    db.close();
  }
}
