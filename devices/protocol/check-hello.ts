import type { z } from 'zod';
import { builtinToolOwner } from '../../core/plugins/builtin/builtin-tool-owner.ts';
import { helloResultSchema, type HelloResult } from './frame-schema.ts';
import { deviceToolName } from './device-tool-name.ts';

/** Who else owns a tool name (a plugin's name), or undefined when a device may take it. */
export type ToolNameOwner = (toolName: string) => string | undefined;

/** A hello the host accepts, or the reason it is refused, written for the person who reads the log. */
export type HelloCheck = { ok: true; hello: HelloResult } | { ok: false; reason: string };

/**
 * Reads a device's answer to `hello`: its shape (identity, at most 64 tools, names a tool name can
 * hold — which also rules out `<unlisted-tools>`), each action once, and no tool name that another
 * plugin owns (`output_send` + `chat` would take the channels plugin's `output_send__chat` and
 * receive the model's chat messages). `owner` defaults to the built-in plugins' names.
 */
export function checkHello(answer: unknown, owner: ToolNameOwner = builtinToolOwner): HelloCheck {
  const parsed = helloResultSchema.safeParse(answer);
  if (!parsed.success) return { ok: false, reason: describeIssue(parsed.error, answer) };
  const hello = parsed.data;
  const refused = refusedToolNames(hello.device.kind, hello.tools, {
    owner,
    remedy: 'give the device another kind in its firmware',
  });
  return refused === undefined ? { ok: true, hello } : { ok: false, reason: refused };
}

/**
 * Why the tools a device of `kind` declares cannot be offered (an action twice, or a tool name
 * another plugin owns), or undefined when they can. A hello is checked by it, and so is a register-map
 * profile, whose tools come from a file rather than from the device.
 */
export function refusedToolNames(
  kind: string,
  tools: readonly { name: string }[],
  options: { owner?: ToolNameOwner | undefined; remedy: string },
): string | undefined {
  const owner = options.owner ?? builtinToolOwner;
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) return `it declares the action '${tool.name}' twice`;
    seen.add(tool.name);
    const name = deviceToolName(kind, tool.name);
    const taken = owner(name);
    if (taken !== undefined)
      return `its kind '${kind}' and action '${tool.name}' make the tool name '${name}', which belongs to the ${taken} plugin: a device may never take another plugin's tool (${options.remedy})`;
  }
  return undefined;
}

/** The first problem of a refused hello: where it is, what it holds, what is wrong. */
function describeIssue(error: z.ZodError, answer: unknown): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'the hello is not valid';
  const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  const value = valueAt(answer, issue.path);
  const shown = Array.isArray(value)
    ? ` (${value.length} given)`
    : typeof value === 'string'
      ? ` (got ${JSON.stringify(value.slice(0, 60))})`
      : '';
  return `${path === '' ? '' : `${path.replace(/^\./, '')}: `}${issue.message}${shown}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const part of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}
