import { z } from 'zod';
import { parseToolArguments } from './parse-tool-arguments.ts';
import type { AccumulatedToolCall } from './tool-call-accumulator.ts';

/** The made-up tool some OpenAI models (gpt-4o and later) wrap a batch of calls in. */
export const PARALLEL_WRAPPER_NAME = 'multi_tool_use.parallel';

const RECIPIENT_PREFIX = 'functions.';

const wrapperArgumentsSchema = z.object({ tool_uses: z.array(z.unknown()) });
const toolUseSchema = z.object({ recipient_name: z.string(), parameters: z.unknown().optional() });

/** The calls of a reply with every wrapper unpacked, or the first wrapper that cannot be read and why. */
export type UnpackedToolCalls =
  { ok: true; calls: AccumulatedToolCall[] } | { ok: false; wrapperId: string; problem: string };

/**
 * Replaces each complete `multi_tool_use.parallel` call (`{"tool_uses": [{"recipient_name":
 * "functions.NAME", "parameters": {...}}, ...]}`) by the calls it holds, in its place: entry n gets
 * the id `<wrapperId>_<n>` (n from 0, the entry's position in `tool_uses`) and `parameters` as its
 * argument text (absent means `{}`; a value that is not an object stays as it is, so that call is
 * answered `invalid_json` by itself). Positions are renumbered. A wrapper whose entries cannot all
 * be named (not JSON, no `tool_uses`, a recipient without `functions.`) makes the whole result
 * unreadable: there is no valid name to store or answer it under. An incomplete wrapper is kept.
 */
export function unpackParallelWrappers(calls: readonly AccumulatedToolCall[]): UnpackedToolCalls {
  if (!calls.some(isWrapper)) return { ok: true, calls: [...calls] };
  const unpacked: AccumulatedToolCall[] = [];
  for (const call of calls) {
    if (!isWrapper(call)) {
      unpacked.push(call);
      continue;
    }
    const entries = readWrapper(call.argumentsText);
    if (!entries.ok) return { ok: false, wrapperId: call.id, problem: entries.problem };
    entries.calls.forEach((entry, n) => {
      unpacked.push({ ...call, id: `${call.id}_${n}`, name: entry.name, argumentsText: entry.argumentsText });
    });
  }
  return { ok: true, calls: unpacked.map((call, position) => ({ ...call, index: position })) };
}

function isWrapper(call: AccumulatedToolCall): boolean {
  return call.complete && call.name === PARALLEL_WRAPPER_NAME;
}

type WrapperEntries = { ok: true; calls: { name: string; argumentsText: string }[] } | { ok: false; problem: string };

function readWrapper(argumentsText: string): WrapperEntries {
  const parsed = parseToolArguments(argumentsText);
  if (!parsed.ok) return { ok: false, problem: `its ${parsed.detail.replace(/^the /, '')}` };
  const wrapper = wrapperArgumentsSchema.safeParse(parsed.args);
  if (!wrapper.success) return { ok: false, problem: 'its arguments have no tool_uses array' };
  if (wrapper.data.tool_uses.length === 0) return { ok: false, problem: 'tool_uses is empty' };
  const entries: { name: string; argumentsText: string }[] = [];
  for (const [n, raw] of wrapper.data.tool_uses.entries()) {
    const where = `tool_uses[${n}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return { ok: false, problem: `${where} is not an object` };
    const entry = toolUseSchema.safeParse(raw);
    if (!entry.success) return { ok: false, problem: `${where} has no recipient_name` };
    const recipient = entry.data.recipient_name;
    if (!recipient.startsWith(RECIPIENT_PREFIX))
      return { ok: false, problem: `${where}.recipient_name '${recipient}' does not start with '${RECIPIENT_PREFIX}'` };
    const name = recipient.slice(RECIPIENT_PREFIX.length);
    if (name === '') return { ok: false, problem: `${where}.recipient_name '${recipient}' names no tool` };
    if (name === PARALLEL_WRAPPER_NAME)
      return { ok: false, problem: `${where} is itself a ${PARALLEL_WRAPPER_NAME} wrapper` };
    const parameters = entry.data.parameters === undefined ? {} : entry.data.parameters;
    entries.push({ name, argumentsText: JSON.stringify(parameters) });
  }
  return { ok: true, calls: entries };
}
