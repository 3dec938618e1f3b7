import { ToolError } from '../../core/tools/tool-error.ts';
import type { ProfileTool, ResponsePattern } from './line-profile-schema.ts';

/**
 * Fills a command template. Every `{name}` must be a given argument; values are formatted by the
 * tool's `formats` and must not contain line breaks (one command, one line, no injection).
 */
export function renderCommand(tool: ProfileTool, args: Record<string, unknown>): string {
  return tool.command.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const value = args[name];
    if (value === undefined || value === null)
      throw new ToolError({ reason: 'required', field: name, detail: `${name} is required` });
    if (typeof value === 'object')
      throw new ToolError({ reason: 'type', field: name, detail: `${name} must be a plain value` });
    const text = String(value);
    const formatted = tool.formats[name]?.[text] ?? text;
    if (tool.formats[name] && tool.formats[name][text] === undefined) {
      throw new ToolError({
        reason: 'type',
        field: name,
        detail: `${name} must be one of ${Object.keys(tool.formats[name]).join(', ')}`,
      });
    }
    if (/[\r\n]/.test(formatted))
      throw new ToolError({ reason: 'type', field: name, detail: `${name} must not contain line breaks` });
    return formatted;
  });
}

/** The outcome of reading one response line against a tool's patterns. */
export type ResponseMatch =
  | { matched: false }
  | { matched: true; ok: true; result: Record<string, unknown> }
  | { matched: true; ok: false; reason: string; detail: string };

/** Tries each pattern in order; the first match wins, its named groups read by their declared types. */
export function matchResponse(patterns: readonly ResponsePattern[], line: string): ResponseMatch {
  for (const pattern of patterns) {
    const match = new RegExp(pattern.pattern).exec(line);
    if (!match) continue;
    const groups = match.groups ?? {};
    if (pattern.error !== undefined)
      return { matched: true, ok: false, reason: pattern.error, detail: groups.detail ?? line };
    const result: Record<string, unknown> = {};
    for (const [name, type] of Object.entries(pattern.captures)) {
      const raw = groups[name];
      if (raw !== undefined) result[name] = readCapture(raw, type);
    }
    return { matched: true, ok: true, result };
  }
  return { matched: false };
}

function readCapture(raw: string, type: 'string' | 'integer' | 'number' | 'boolean'): unknown {
  if (type === 'string') return raw;
  if (type === 'boolean') return ['1', 'on', 'true', 'yes'].includes(raw.toLowerCase());
  const number = Number(raw);
  return type === 'integer' ? Math.trunc(number) : number;
}
