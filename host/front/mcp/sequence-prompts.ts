import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { collectSlotReferences } from '../../../core/plugins/sequences/slot-reference.ts';
import { INPUT_SLOT, type Sequence } from '../../../core/plugins/sequences/sequence-schema.ts';
import { isRecord } from '../../../core/text/is-record.ts';
import { safeText } from '../../../core/text/safe-text.ts';
import type { AuthorizationContext } from '../../../core/tools/tool-definition.ts';
import type { ToolApi } from '../../../core/tools/tool-api.ts';
import { deadlineSignal } from '../../../core/text/deadline-signal.ts';

/** The most sequences served as prompts (a client shows them as a menu). */
export const MAX_PROMPTS = 100;
/** How long reading the sequences may take. */
const READ_TIMEOUT_MS = 10_000;

/** A saved sequence as a prompt, with the input fields its calls read and which of them name a device. */
export interface SequencePrompt {
  prompt: Prompt;
  /** The arguments given as a call's `device_id` (completed with device ids and aliases). */
  deviceArguments: Set<string>;
}

/**
 * The saved sequences the session may run (seq_run enabled, the CanUse gate allows it for that
 * name), read through the ToolAPI (seq_list, seq_show) as its own calls would be. Each argument is
 * a field of the `input` slot one of its calls reads (`{"$slot": "input.FIELD"}`).
 */
export async function sequencePrompts(toolApi: ToolApi, context: AuthorizationContext): Promise<SequencePrompt[]> {
  if (!toolApi.byName('seq_run') || !toolApi.byName('seq_list') || !toolApi.byName('seq_show')) return [];
  const call = (name: string, args: Record<string, unknown>) =>
    toolApi.call({ ...context, signal: deadlineSignal(READ_TIMEOUT_MS) }, name, args);
  const listed = await call('seq_list', {});
  const entries =
    listed.ok && isRecord(listed.value) && Array.isArray(listed.value.sequences) ? listed.value.sequences : [];
  const prompts: SequencePrompt[] = [];
  for (const entry of entries.slice(0, MAX_PROMPTS)) {
    if (!isRecord(entry) || typeof entry.name !== 'string') continue;
    if ((await toolApi.canUse(context, 'seq_run', { name: entry.name })) !== null) continue;
    const shown = await call('seq_show', { name: entry.name });
    if (shown.ok && isRecord(shown.value) && Array.isArray(shown.value.groups))
      prompts.push(promptOf(shown.value as unknown as Sequence));
  }
  return prompts;
}

function promptOf(sequence: Sequence): SequencePrompt {
  const fields = new Set<string>();
  const deviceArguments = new Set<string>();
  for (const group of sequence.groups)
    for (const call of group.calls)
      for (const reference of collectSlotReferences(call.args ?? {}, 'args').references) {
        const [slot, field] = reference.segments;
        if (slot !== INPUT_SLOT || field === undefined) continue;
        fields.add(field);
        if (reference.segments.length === 2 && reference.field === 'args.device_id') deviceArguments.add(field);
      }
  return {
    prompt: {
      name: sequence.name,
      description: safeText(sequence.description),
      arguments: [...fields].map((field) => ({
        name: field,
        description: deviceArguments.has(field)
          ? `The device (its id) for input.${field}.`
          : `input.${field} of the sequence.`,
        required: false,
      })),
    },
    deviceArguments,
  };
}

/** The user message a prompt gets: run that sequence by its tool, with the input given. */
export function promptMessage(name: string, input: Record<string, string>): string {
  const given = Object.keys(input).length > 0 ? ` with input ${safeText(JSON.stringify(input))}` : '';
  return `Run my home's saved sequence "${name}"${given}: call the tool seq_run with name "${name}"${given ? ' and that input' : ''}, then tell me its report.`;
}
