import { safeText } from '../text/safe-text.ts';
import { ToolError, type ToolErrorData } from './tool-error.ts';
import type { CallOutcome } from './call-outcome.ts';

/** The outcome of one tool call, kept as a structured value until rendered for the model. */
export type ToolOutcome = { ok: true; value: unknown } | { ok: false; error: ToolErrorData; value?: unknown };

/**
 * True for a value that reports failure: a `ToolError`, or a legacy `{ error: … }` object.
 * Plain objects and strings are successes (seed 001, phase 1b).
 */
export function isToolError(value: unknown): boolean {
  if (ToolError.isInstance(value)) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const error = (value as Record<string, unknown>).error;
  return error !== undefined && error !== null && error !== false && error !== '';
}

/** Turns whatever a handler returned or threw into an honest outcome: ok = no throw && !isToolError(value). */
export function normaliseToolOutcome(outcome: { returned: unknown } | { thrown: unknown }): ToolOutcome {
  if ('thrown' in outcome) return { ok: false, error: errorDataOf(outcome.thrown) };
  const value = outcome.returned;
  if (ToolError.isInstance(value)) return { ok: false, error: value.toData() };
  if (isToolError(value)) {
    const legacy = (value as { error: unknown }).error;
    return {
      ok: false,
      error: { reason: 'failed', detail: typeof legacy === 'string' ? legacy : compactJson(legacy) },
      value,
    };
  }
  return { ok: true, value };
}

/** What a thrown value means as a ToolError. */
export function errorDataOf(thrown: unknown): ToolErrorData {
  if (ToolError.isInstance(thrown)) return thrown.toData();
  if (thrown instanceof Error) return { reason: 'failed', detail: thrown.message };
  return { reason: 'failed', detail: typeof thrown === 'string' ? thrown : compactJson(thrown) };
}

/**
 * Compact JSON for the model; never `String(obj)` / `[object Object]`. Characters that could act
 * instead of being read (controls, bidi, zero-width: `safeText`) are written as their `\uXXXX`
 * escapes, which is the same JSON value: what a device answers is read, never obeyed, by the model
 * and by a terminal.
 */
export function compactJson(value: unknown): string {
  if (value === undefined) return 'null';
  try {
    return safeText(
      JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)) ?? 'null',
    );
  } catch (error) {
    // A cyclic value cannot be JSON; say why in words rather than send "[object Object]".
    const why = ((error as Error)?.message ?? String(error)).split('\n')[0];
    return JSON.stringify({ unserialisable: `the value could not be turned into JSON (${why})` });
  }
}

/**
 * What the model is told beside an interrupted call's error, so it never reports an action as done
 * or undone; `reaches` is what the call reached when it is not a device (an MCP server).
 */
function outcomeNote(callOutcome: CallOutcome, reaches: string | undefined): string | undefined {
  if (callOutcome === 'unknown')
    return reaches === undefined
      ? 'The request left for the device but no answer came: it may have acted. Read its state before saying what happened or trying again.'
      : `The request left for ${reaches} but no answer came: it may have acted. Find out what it did before saying what happened or trying again.`;
  if (callOutcome === 'not_sent')
    return reaches === undefined
      ? 'Nothing was sent: the device did not act.'
      : `Nothing was sent to ${reaches}: it did not act.`;
  return undefined;
}

/**
 * Renders an outcome as the text of the tool message the model reads. An interrupted call (timed
 * out, stopped, device gone) also says what is known of its effect, naming what it reached
 * (`reaches`, the tool's own words; absent: the device).
 */
export function renderOutcomeForModel(
  outcome: ToolOutcome,
  callOutcome?: CallOutcome,
  options: { reaches?: string } = {},
): string {
  if (outcome.ok) return typeof outcome.value === 'string' ? outcome.value : compactJson(outcome.value);
  const interrupted = ['timeout', 'aborted', 'device_offline'].includes(outcome.error.reason);
  const note = interrupted && callOutcome !== undefined ? outcomeNote(callOutcome, options.reaches) : undefined;
  return compactJson(note ? { error: outcome.error, outcome: callOutcome, note } : { error: outcome.error });
}
