import { z } from 'zod';
import type { ToolResultMessage } from '../conversation-message.ts';

/** How one result went, for the summary's first line. */
export type ResultKind = 'ok' | 'failed';

/** A failure as the tool message carries it: `{ error, outcome?, note? }` (core/tools/tool-result.ts). */
const failureSchema = z.object({
  error: z.object({ reason: z.string(), detail: z.string().optional() }),
  outcome: z.string().optional(),
});

function parse(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** What a call was meant to do, in a past participle: "switched", "changed", "shown", "read". */
function meant(toolName: string, args: Record<string, unknown>): string {
  if (/__(get|read)$/.test(toolName)) return 'read';
  if (/show|output_send/.test(toolName)) return 'shown';
  return args.on !== undefined ? 'switched' : 'changed';
}

/** The units a tool's description gives its readings: `power_w (W)` → power_w: W. */
function unitsIn(description: string | undefined): Map<string, string> {
  const units = new Map<string, string>();
  for (const found of (description ?? '').matchAll(/\b([a-z][a-z0-9_]*) \(([^()\s]{1,6})\)/g)) {
    if (found[2] !== 'on/off') units.set(found[1]!, found[2]!);
  }
  return units;
}

/** `voltage_v 229.8 V, relay_1 off`: every scalar of a reading, with its unit where the tool gives one. */
function readingInWords(state: Record<string, unknown>, units: ReadonlyMap<string, string>): string | undefined {
  const parts = Object.entries(state).flatMap(([name, value]) => {
    if (typeof value === 'boolean') return [`${name} ${value ? 'on' : 'off'}`];
    if (typeof value === 'number' || typeof value === 'string') {
      const unit = units.get(name);
      return [`${name} ${String(value)}${unit ? ` ${unit}` : ''}`];
    }
    return [];
  });
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/**
 * One line a person can read for a tool result the demo planner saw, honest about the outcome:
 * known device shapes in words ("lamp-1 is on at 100 %", "relay-1 channel 2 is on"), any other
 * reading field by field with the units its tool declares; a failure with what is known of its
 * effect — not sent (it did not act), no answer (it may have acted), refused by the device, or not
 * allowed by the person.
 */
export function describeResult(
  result: ToolResultMessage,
  args: Record<string, unknown> = {},
  tool?: { description: string },
  /** What the person calls a device, by id (its alias): the chat names devices as they do. */
  nameOf: (deviceId: string) => string = (deviceId) => deviceId,
): { kind: ResultKind; line: string } {
  const value = parse(result.content);
  const who = typeof args.device_id === 'string' ? nameOf(args.device_id) : result.toolName;
  if (result.isError) {
    const failure = failureSchema.safeParse(value);
    if (!failure.success) return { kind: 'failed', line: `${who} failed: ${result.content}` };
    const { error, outcome } = failure.data;
    const detail = error.detail ?? error.reason;
    const verb = meant(result.toolName, args);
    if (outcome === 'unknown' || (outcome === undefined && ['timeout', 'aborted'].includes(error.reason)))
      return { kind: 'failed', line: `${who}: no answer came (${detail}); it may have acted, so its state is unknown` };
    if (error.reason === 'denied') return { kind: 'failed', line: `${who} was not ${verb}: you did not allow it` };
    if (outcome === 'not_sent')
      return { kind: 'failed', line: `${who} was not ${verb}: ${detail} (nothing was sent, it did not act)` };
    if (['unauthorized', 'not_found', 'required', 'type', 'invalid_json'].includes(error.reason))
      return { kind: 'failed', line: `${who} was not ${verb}: ${detail}` };
    return { kind: 'failed', line: `${who} failed: ${detail}` };
  }
  const reported = field(value, 'device_id');
  const device = typeof reported === 'string' ? nameOf(reported) : reported;
  const state = field(value, 'result');
  const channel = field(state, 'channel');
  if (typeof device === 'string' && typeof channel === 'number' && typeof field(state, 'on') === 'boolean')
    return { kind: 'ok', line: `${device} channel ${channel} is ${field(state, 'on') ? 'on' : 'off'}` };
  if (typeof device === 'string' && typeof field(state, 'on') === 'boolean') {
    const brightness = field(state, 'brightness');
    const level = typeof brightness === 'number' ? brightness : undefined;
    if (field(state, 'on'))
      return { kind: 'ok', line: `${device} is on${level !== undefined ? ` at ${level} %` : ''}` };
    const setBrightness = args.brightness !== undefined && level !== undefined;
    return { kind: 'ok', line: `${device} is off${setBrightness ? ` (brightness ${level} %)` : ''}` };
  }
  if (typeof device === 'string' && typeof field(state, 'celsius') === 'number') {
    const humidity = field(state, 'humidity');
    return {
      kind: 'ok',
      line: `${device} reads ${String(field(state, 'celsius'))} °C${typeof humidity === 'number' ? `, ${humidity} % humidity` : ''}`,
    };
  }
  const shown = field(value, 'shown') ?? field(state, 'shown');
  if (typeof shown === 'string')
    return { kind: 'ok', line: `${typeof device === 'string' ? device : 'the display'} shows "${shown}"` };
  if (typeof device === 'string' && typeof state === 'object' && state !== null) {
    // A switch the device answered with nothing but "done" (an AT board's OK): what was asked, and that it said done.
    if (Object.keys(state).length === 0 && typeof args.on === 'boolean') {
      const where = Object.entries(args)
        .filter(([name, given]) => name !== 'device_id' && name !== 'on' && typeof given === 'number')
        .map(([name, given]) => ` ${name} ${String(given)}`)
        .join('');
      return { kind: 'ok', line: `${device}${where} switched ${args.on ? 'on' : 'off'} (the device said done)` };
    }
    const reading = readingInWords(state as Record<string, unknown>, unitsIn(tool?.description));
    if (reading !== undefined) return { kind: 'ok', line: `${device} reads ${reading}` };
  }
  return { kind: 'ok', line: `${result.toolName}: ${result.content}` };
}
