import type { ConversationMessage } from '../models/conversation-message.ts';
import { utf8Length } from '../text/utf8-length.ts';

/** Before any server's usage calibrated a model, a token is taken to be at most this many bytes. */
export const DEFAULT_BYTES_PER_TOKEN = 3.5;

/**
 * What one attached image counts, in bytes, whatever its base64 size: providers bill an image by
 * its pixels (roughly a thousand to two thousand tokens), not by its encoding.
 */
export const MEDIA_ITEM_BYTES = 6_000;

// Messages are immutable once stored, so each one's size is computed once.
const sizes = new WeakMap<ConversationMessage, number>();

/**
 * A message's size as the budget counts it: the UTF-8 bytes of its JSON, each attached image as
 * MEDIA_ITEM_BYTES. Every format serialises a message a little differently; the bytes-per-token
 * ratio each model is calibrated to absorbs that.
 */
export function messageBytes(message: ConversationMessage): number {
  const known = sizes.get(message);
  if (known !== undefined) return known;
  const media = message.role === 'tool' ? (message.media ?? []) : [];
  const counted = media.length > 0 ? { ...message, media: undefined } : message;
  const bytes = utf8Length(JSON.stringify(counted)) + media.length * MEDIA_ITEM_BYTES;
  sizes.set(message, bytes);
  return bytes;
}

/** The tokens `bytes` make at `bytesPerToken` (rounded up: the estimate errs on the long side). */
export function tokensOf(bytes: number, bytesPerToken: number): number {
  return Math.ceil(bytes / bytesPerToken);
}
