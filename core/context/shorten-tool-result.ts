import type { ConversationMessage, ToolResultMessage } from '../models/conversation-message.ts';
import { utf8Length } from '../text/utf8-length.ts';
import { messageBytes } from './request-bytes.ts';

/** An older tool result larger than this (its message, in bytes) is shortened before any turn is left out. */
export const SHORTEN_RESULTS_OVER_BYTES = 2 * 1024;
/** How much of a shortened result's content is kept. */
const KEEP_BYTES = 1024;

const shortened = new WeakMap<ToolResultMessage, ToolResultMessage>();

/** True for a tool result the budget may shorten (over SHORTEN_RESULTS_OVER_BYTES). */
export function isShortenable(message: ConversationMessage): message is ToolResultMessage {
  return message.role === 'tool' && messageBytes(message) > SHORTEN_RESULTS_OVER_BYTES;
}

/**
 * Pure: the result with only the first KiB of its content (cut between characters) and a marker
 * saying how much was left out and that the tool can be called again; its media are left out too.
 * The same message always gives the same text, so `verify` rebuilds it exactly.
 */
export function shortenToolResult(message: ToolResultMessage): ToolResultMessage {
  const known = shortened.get(message);
  if (known) return known;
  const kept = headOf(message.content, KEEP_BYTES);
  const total = utf8Length(message.content);
  const left = total - utf8Length(kept);
  const images = message.media?.length ?? 0;
  const alsoImages = images > 0 ? ` and its ${images === 1 ? 'image' : `${images} images`}` : '';
  const marker = `[Home Agent left out ${left} of the ${total} bytes of this result${alsoImages} to fit the model's context window; call ${message.toolName} again to see it whole.]`;
  const { media: _media, ...rest } = message;
  const result: ToolResultMessage = { ...rest, content: `${kept}…\n${marker}` };
  shortened.set(message, result);
  return result;
}

/** The longest start of `text` that is at most `limit` UTF-8 bytes, never splitting a character. */
function headOf(text: string, limit: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = utf8Length(character);
    if (bytes + size > limit) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}
