import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../../../core/tools/tool-error.ts';
import type { ToolMedia } from '../../../core/tools/tool-definition.ts';
import { utf8Length } from '../../../core/text/utf8-length.ts';
import { jsonNestingExceeds } from '../../../core/text/json-nesting-exceeds.ts';

/** Levels a structured result may nest: the same bound as arguments and device frames. */
export const MAX_RESULT_NESTING = 64;

/** Image types the model adapters send on; other media is named in the text instead. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** How servers word a call to a tool they do not have (as a result text or a JSON-RPC error message). */
const UNKNOWN_TOOL = /\b(unknown|no such) tool\b|\btool\b[^\n]{0,200}\bnot found\b/i;

/** Whether a server's words say the tool it was asked for does not exist. */
export function saysUnknownTool(text: string): boolean {
  return UNKNOWN_TOOL.test(text);
}

/**
 * A server's answer to one call, as the kernel's value: `structuredContent` is the structured
 * result; otherwise the text parts, one per line (other parts named in words); images go to the
 * call's media. `isError: true` throws `failed` with the server's text as the detail (the spec says
 * the model should see it), or `not_found` when the text says the tool is unknown. An answer over
 * `maxBytes` (as JSON), or nested deeper than 64 levels, is refused with `failed`, saying which.
 */
export function mapToolResult(options: {
  result: CallToolResult;
  /** `mcp__SERVER__TOOL`, for the messages. */
  name: string;
  maxBytes: number;
  /** The setting that sets `maxBytes`, for the message. */
  maxBytesSetting: string;
  attachMedia: (media: ToolMedia) => void;
}): unknown {
  const { result, name } = options;
  let text: string;
  try {
    text = JSON.stringify(result);
  } catch (error) {
    // Only a value nested beyond the stack's depth fails here (it came from JSON, so no cycles).
    throw new ToolError({
      reason: 'failed',
      detail: `${name}: its answer could not be read (${(error as Error).message})`,
    });
  }
  const bytes = utf8Length(text);
  if (bytes > options.maxBytes)
    throw new ToolError({
      reason: 'failed',
      detail: `${name} answered ${bytes} bytes, more than ${options.maxBytesSetting} allows (${options.maxBytes}); nothing of it was kept`,
      hint: 'Ask for less (a narrower query), or tell the person the setting can be raised.',
    });
  if (jsonNestingExceeds(text, MAX_RESULT_NESTING))
    throw new ToolError({
      reason: 'failed',
      detail: `${name} answered a value nested more than ${MAX_RESULT_NESTING} levels deep; nothing of it was kept`,
    });
  const lines: string[] = [];
  const media: ToolMedia[] = [];
  for (const part of result.content) {
    switch (part.type) {
      case 'text':
        lines.push(part.text);
        break;
      case 'image':
        if (IMAGE_TYPES.has(part.mimeType) && BASE64.test(part.data)) {
          media.push({ mimeType: part.mimeType, data: part.data });
          lines.push(`[image ${part.mimeType} attached]`);
        } else lines.push(`[an image of type ${JSON.stringify(part.mimeType.slice(0, 100))} that cannot be shown]`);
        break;
      case 'audio':
        lines.push(`[audio ${JSON.stringify(part.mimeType.slice(0, 100))} not shown]`);
        break;
      case 'resource_link':
        lines.push(`[resource ${part.name}: ${part.uri}]`);
        break;
      case 'resource':
        if ('text' in part.resource) lines.push(part.resource.text);
        else lines.push(`[resource ${part.resource.uri}: binary, not shown]`);
        break;
    }
  }
  const joined = lines.join('\n');
  if (result.isError === true) {
    if (saysUnknownTool(joined))
      throw new ToolError({
        reason: 'not_found',
        detail: `${name}: the server says it has no such tool (${joined})`,
        hint: 'Call system_list_tools to see the tools that exist; do not retry this name.',
      });
    throw new ToolError({ reason: 'failed', detail: joined === '' ? `${name} failed and said nothing` : joined });
  }
  for (const item of media) options.attachMedia(item);
  if (result.structuredContent !== undefined) return result.structuredContent;
  return joined;
}
