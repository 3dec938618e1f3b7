import { MAX_JSON_DEPTH } from '../text/json-nesting-exceeds.ts';
import { utf8Length } from '../text/utf8-length.ts';
import { measureJson } from './measure-json.ts';
import { ToolError } from './tool-error.ts';

/**
 * How large a call's arguments may be, as JSON in UTF-8 bytes: the host's `maxToolArgumentBytes`
 * setting (its row in the settings table takes its default from here). Their depth is always MAX_JSON_DEPTH.
 */
export interface ArgumentBounds {
  maxBytes: number;
}

/** The default of `maxToolArgumentBytes`: 64 KiB, far above what a device or sequence call needs. */
export const DEFAULT_MAX_TOOL_ARGUMENT_BYTES = 65_536;

/** The key of the stand-in journaled instead of arguments that break a bound; a real argument is never named so. */
export const ARGUMENTS_NOT_KEPT = '$notKept';

/** How much of refused arguments' JSON a stand-in keeps, so a person can tell what was sent. */
const PREVIEW_LENGTH = 200;

const bytes = (count: number): string => count.toLocaleString('en-US');

/** The depth refusal in words (also the argument text's own check, parseToolArguments). */
export function argumentDepthProblem(): string {
  return `the arguments are nested more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed`;
}

function sizeProblem(bounds: ArgumentBounds, size?: number): string {
  const allowed = `at most ${bytes(bounds.maxBytes)} are allowed (the setting maxToolArgumentBytes)`;
  return size === undefined
    ? `the arguments take more than ${bytes(bounds.maxBytes)} bytes as JSON; ${allowed}`
    : `the arguments are ${bytes(size)} bytes; ${allowed}`;
}

/** Which bound arguments break, and why in words for the model and the person. */
export interface ArgumentBreach {
  bound: 'depth' | 'size';
  problem: string;
}

/**
 * The bound parsed arguments break (nested past MAX_JSON_DEPTH, or larger as JSON than
 * `bounds.maxBytes`); undefined when they keep both. Walks with a loop and stops at the bound, so
 * any value is safe to ask about.
 */
export function argumentBoundProblem(args: unknown, bounds: ArgumentBounds | undefined): ArgumentBreach | undefined {
  const breach = breachOf(args, bounds);
  return breach && { bound: breach.bound, problem: breach.problem };
}

/** Why argument text is larger than the size bound (its depth is parseToolArguments' to check); undefined when it fits. */
export function argumentsTextProblem(text: string, bounds: ArgumentBounds | undefined): string | undefined {
  if (bounds === undefined) return undefined;
  const size = utf8Length(text);
  return size > bounds.maxBytes ? sizeProblem(bounds, size) : undefined;
}

/** The refusal of a call whose arguments break a bound: `invalid_json`, like arguments that cannot be read. */
export function argumentBoundError(toolName: string, breach: ArgumentBreach): ToolError {
  return new ToolError({
    reason: 'invalid_json',
    detail: `${toolName}: ${breach.problem}`,
    hint:
      breach.bound === 'depth'
        ? `Call ${toolName} again with its arguments as one JSON object nested at most ${MAX_JSON_DEPTH} levels deep.`
        : `Call ${toolName} again with smaller arguments, or split the work over several calls.`,
  });
}

/**
 * The arguments as the journal and the front ends may keep them: the same object when they keep
 * both bounds, else a small stand-in saying why and showing their start (never the value itself).
 */
export function boundedArguments(
  args: Record<string, unknown>,
  bounds: ArgumentBounds | undefined,
): Record<string, unknown> {
  const breach = breachOf(args, bounds, PREVIEW_LENGTH);
  if (breach === undefined) return args;
  return { [ARGUMENTS_NOT_KEPT]: breach.problem, $preview: `${breach.preview}…` };
}

/** Argument text as it may be kept: itself when it fits the size bound, else its start and why the rest was not kept. */
export function boundedArgumentsText(text: string, bounds: ArgumentBounds | undefined): string {
  const problem = argumentsTextProblem(text, bounds);
  if (problem === undefined) return text;
  let head = text.slice(0, PREVIEW_LENGTH);
  // Never keep half of a surrogate pair.
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `${head}… (not kept: ${problem})`;
}

function breachOf(
  args: unknown,
  bounds: ArgumentBounds | undefined,
  previewLength = 0,
): (ArgumentBreach & { preview: string }) | undefined {
  const measured = measureJson(args, {
    maxDepth: MAX_JSON_DEPTH,
    ...(bounds !== undefined ? { maxBytes: bounds.maxBytes } : {}),
    previewLength,
  });
  if (measured.tooDeep) return { bound: 'depth', problem: argumentDepthProblem(), preview: measured.preview };
  if (measured.tooLarge && bounds !== undefined)
    return { bound: 'size', problem: sizeProblem(bounds), preview: measured.preview };
  return undefined;
}
