import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { BatchRecord, CallRecord } from '../../../core/events/fold-call-records.ts';
import { describeCallOutcome, describeErrorReason } from '../../../core/tools/describe-call-outcome.ts';
import { describeDeviceState } from '../../../core/tools/describe-device-state.ts';
import { compactJson } from '../../../core/tools/tool-result.ts';
import { safeText } from '../../../core/text/safe-text.ts';

/** Pure: a call's arguments in full, `key: value` in the model's key order, values as compact JSON. */
export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([key, value]) => `${key}: ${compactJson(value)}`)
    .join(', ');
}

/** Pure: a duration for people: `840 ms`, `1.3 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Pure: one row of a batch (core's call record), 1-based, with its full arguments and where it
 * stands: queued, running (for how long, from `runningSince`), or its outcome in words (done with
 * its result; failed, not sent or unknown with the error, its hint and what that means for the
 * device), and any wait for the person apart. A call that started while the reply streamed says so.
 * Always one line, shown safely: errors quote what devices said.
 */
export function formatCallRow(row: CallRecord, now: number): string {
  return safeText(callRowText(row, now));
}

function callRowText(row: CallRecord, now: number): string {
  const head = `│ ${row.index + 1}. ${row.name}${Object.keys(row.args).length > 0 ? `  ${formatArgs(row.args)}` : ''}`;
  if (row.status === 'queued') return `${head} — queued`;
  if (row.status === 'interrupted') return `${head} — no outcome recorded: it may have acted`;
  const early = row.early ? ' (started while the reply streamed)' : '';
  // Asked and not yet answered: it waits for the person, it is not running.
  if (row.askingSince !== undefined && row.status !== 'done')
    return `${head} — waiting for your answer ${formatMs(now - row.askingSince)}${early}`;
  if (row.status === 'running')
    return `${head} — running${row.runningSince !== undefined ? ` ${formatMs(now - row.runningSince)}` : ''}${early}`;
  const words = describeCallOutcome(row.outcome, row.ok, row.reaches);
  const waited = row.approvalMs !== undefined ? ` · waited ${formatMs(row.approvalMs)} for you` : '';
  const ran = row.runMs !== undefined ? ` · ran ${formatMs(row.runMs - (row.approvalMs ?? 0))}` : '';
  if (row.ok)
    return `${head} — ${words.label}${ran}${waited}${early}${row.result !== undefined ? ` → ${compactJson(row.result)}` : ''}`;
  const error = row.error
    ? `${describeErrorReason(row.error.reason, row.reaches)}${row.error.detail ? `: ${row.error.detail}` : ''}`
    : 'no detail';
  const hint = row.error?.hint ? ` (${row.error.hint})` : '';
  const meaning = row.outcome === 'unknown' || row.outcome === 'not_sent' ? ` — ${words.meaning}` : '';
  return `${head} — ${words.label}: ${error}${hint}${meaning}${ran}${waited}${early}`;
}

/** Pure: the first line of a batch: its number, mode, and the reason without the mode repeated. */
export function formatBatchHeader(batch: Pick<BatchRecord, 'sequence' | 'mode' | 'reason'>): string {
  if (batch.mode === undefined) return `┌ batch ${batch.sequence} · starting while the reply streams`;
  const reason = (batch.reason ?? '').replace(/^(parallel|serial): /, '');
  return `┌ batch ${batch.sequence} · ${batch.mode} — ${reason}`;
}

/** Pure: the last line of a batch: how many calls succeeded, of how many, in what wall time. */
export function formatBatchFooter(event: Extract<AgentEvent, { type: 'batch/end' }>, total: number): string {
  return `└ ${event.executed} of ${total} done in ${formatMs(event.wallMs)}`;
}

/** Pure: what the read-back after a Stop found on one device, on one line shown safely. */
export function formatDeviceState(event: Extract<AgentEvent, { type: 'device/state' }>): string {
  return safeText(deviceStateText(event));
}

function deviceStateText(event: Extract<AgentEvent, { type: 'device/state' }>): string {
  const part = event.args ? ` (${formatArgs(event.args)})` : '';
  if (event.error)
    return `${event.deviceId}${part} could not be read after the stop (${event.error.reason}${event.error.detail ? `: ${event.error.detail}` : ''}): it may have acted`;
  return `${event.deviceId}${part} read after the stop: it is now ${describeDeviceState(event.result)}`;
}

/** Pure: the closing line of a turn that did not end done (the error itself goes to stderr). */
export function formatTurnEnding(event: Extract<AgentEvent, { type: 'turn/end' }>): string | undefined {
  if (event.reason === 'aborted') return 'Stopped.';
  if (event.reason === 'max_steps') return 'Stopped at the step limit.';
  return undefined;
}
