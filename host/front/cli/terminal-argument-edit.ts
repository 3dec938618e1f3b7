import { z } from 'zod';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { compactJson } from '../../../core/tools/tool-result.ts';
import { DEVICE_ARGUMENT } from '../../../core/tools/check-edited-arguments.ts';

const argumentsObject = z.record(z.string(), z.unknown());

/** Whether the person's answer to a call's question asks to edit its arguments (`e`). */
export function asksToEdit(text: string): boolean {
  const answer = text.trim().toLowerCase();
  return answer === 'e' || answer === 'edit';
}

/** What the terminal asks for when the person edits a call's arguments: JSON, the device staying as asked. */
export function editQuestion(event: Extract<AgentEvent, { type: 'approval/request' }>): string {
  const { [DEVICE_ARGUMENT]: device, ...rest } = event.args;
  const stays = device !== undefined ? ` (${DEVICE_ARGUMENT} stays ${compactJson(device)})` : '';
  return `New arguments for ${event.name} as one JSON object${stays}, e.g. ${compactJson(rest)}; empty to go back: `;
}

/**
 * Reads the person's edited arguments (one JSON object; the call's device is kept as the model asked),
 * or says what is wrong with the line. The host checks them against the tool's schema when they are sent.
 */
export function readEditedArguments(
  text: string,
  modelArgs: Record<string, unknown>,
): { ok: true; args: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON (${(error as Error).message}): write one JSON object on one line` };
  }
  const parsed = argumentsObject.safeParse(value);
  if (!parsed.success || Array.isArray(value))
    return { ok: false, problem: 'the arguments must be one JSON object, like {"channel":3,"on":true}' };
  const device = Object.hasOwn(modelArgs, DEVICE_ARGUMENT) ? { [DEVICE_ARGUMENT]: modelArgs[DEVICE_ARGUMENT] } : {};
  return { ok: true, args: { ...device, ...parsed.data } };
}
