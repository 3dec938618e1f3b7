import type { ConversationMessage } from '../models/conversation-message.ts';
import { canonicalJson } from './canonical-json.ts';
import { sha256Hex } from './hash.ts';

/** The messages hash of an empty history: the start of the chain. */
export const MESSAGES_HASH_START = '0'.repeat(64);

/**
 * One link of the messages hash chain: `sha256(previous + "\n" + canonicalJson(message))`. The hash
 * of a history is the chain over its messages as sent (gaps answered), so a step hashes only the
 * messages added since the last one, and one changed byte anywhere changes every later link.
 */
export function chainMessageHash(previous: string, message: ConversationMessage): Promise<string> {
  return sha256Hex(`${previous}\n${canonicalJson(message)}`);
}

/**
 * `requestHash` of a `request/header`: `sha256(systemPromptHash + "\n" + toolsHash + "\n" +
 * messagesHash)` — the system prompt's hash, the hash of the tool declarations' JSON as sent, and
 * the messages hash chain. `home-agent verify` recomputes it from the stored parts and messages.
 */
export function requestHashOf(parts: {
  systemPromptHash: string;
  toolsHash: string;
  messagesHash: string;
}): Promise<string> {
  return sha256Hex(`${parts.systemPromptHash}\n${parts.toolsHash}\n${parts.messagesHash}`);
}
