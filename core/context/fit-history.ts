import type { ConversationMessage } from '../models/conversation-message.ts';
import { messageBytes } from './request-bytes.ts';
import { isShortenable, shortenToolResult } from './shorten-tool-result.ts';

/**
 * How a history was fitted, which is all it takes to rebuild what was sent from the whole history:
 * the oldest `omittedTurns` turns left out, then the first `shortenedResults` tool results over
 * 2 KiB among the older turns that remain shortened (oldest first).
 */
export interface ContextFit {
  omittedTurns: number;
  shortenedResults: number;
}

/** A history fitted to a budget: what to send, how it was fitted, and its size. */
export interface FittedHistory extends ContextFit {
  /** The messages to send (empty when `tooLarge`). */
  messages: ConversationMessage[];
  /** The bytes of the messages sent (see messageBytes). */
  messageBytes: number;
  /** The bytes of the history that were not sent: turns left out and what shortening removed. */
  omittedBytes: number;
  /** The bytes of the current turn (the person's message and every step since). */
  currentTurnBytes: number;
  /** The fixed parts and the current turn alone are over the budget: nothing can be sent. */
  tooLarge: boolean;
}

/** Where a history's turns are: the start of each older turn (a leading part without a person's message first), and the current turn's. */
interface TurnLayout {
  olderStarts: number[];
  current: number;
  /** The first older "turn" has no person's message: it is never sent. */
  leading: boolean;
}

function layoutOf(messages: readonly ConversationMessage[]): TurnLayout {
  const starts: number[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'user') starts.push(index);
  });
  if (starts.length === 0) return { olderStarts: [], current: 0, leading: false };
  const leading = starts[0]! > 0;
  return { olderStarts: leading ? [0, ...starts.slice(0, -1)] : starts.slice(0, -1), current: starts.at(-1)!, leading };
}

/**
 * Pure: fits a history (every call already answered) to `budgetBytes` for the messages, beside
 * `fixedBytes` (the system prompt and tool declarations). The current turn — from the person's last
 * message on — is always sent whole; when it does not fit beside the fixed parts, nothing is sent
 * (`tooLarge`). Otherwise, older tool results over 2 KiB are shortened first, oldest first, as far
 * as needed; then older turns are left out whole, oldest first. A turn is a person's message and
 * every message after it up to the next, so a call never goes without its result nor a result
 * without its call, and the first message sent is always the person's (anything before the first
 * person's message is never sent). Without a budget only that last rule applies.
 */
export function fitHistory(options: {
  messages: readonly ConversationMessage[];
  fixedBytes: number;
  /** The bytes the request may take in all; absent: not known, nothing is left out. */
  budgetBytes?: number;
}): FittedHistory {
  const { messages, fixedBytes, budgetBytes } = options;
  const layout = layoutOf(messages);
  const groups = layout.olderStarts.map((start, position) => ({
    start,
    end: layout.olderStarts[position + 1] ?? layout.current,
  }));
  const sum = (from: number, to: number): number => {
    let bytes = 0;
    for (let index = from; index < to; index += 1) bytes += messageBytes(messages[index]!);
    return bytes;
  };
  const currentTurnBytes = sum(layout.current, messages.length);
  const wholeBytes = sum(0, messages.length);
  const forced = layout.leading ? 1 : 0;
  const result = (fit: ContextFit): FittedHistory => {
    const sent = applyFit(messages, fit);
    let sentBytes = 0;
    for (const message of sent) sentBytes += messageBytes(message);
    return {
      ...fit,
      messages: sent,
      messageBytes: sentBytes,
      omittedBytes: wholeBytes - sentBytes,
      currentTurnBytes,
      tooLarge: false,
    };
  };
  if (budgetBytes !== undefined && fixedBytes + currentTurnBytes > budgetBytes)
    return {
      omittedTurns: 0,
      shortenedResults: 0,
      messages: [],
      messageBytes: 0,
      omittedBytes: wholeBytes,
      currentTurnBytes,
      tooLarge: true,
    };
  const groupBytes = groups.map((group) => sum(group.start, group.end));
  let total = fixedBytes + currentTurnBytes;
  for (let group = forced; group < groups.length; group += 1) total += groupBytes[group]!;
  if (budgetBytes === undefined || total <= budgetBytes) return result({ omittedTurns: forced, shortenedResults: 0 });

  // Shorten older results, oldest first, as far as needed.
  const savings: { group: number; bytes: number }[] = [];
  for (let group = forced; group < groups.length; group += 1)
    for (let index = groups[group]!.start; index < groups[group]!.end; index += 1) {
      const message = messages[index]!;
      if (isShortenable(message))
        savings.push({ group, bytes: messageBytes(message) - messageBytes(shortenToolResult(message)) });
    }
  let shortened = 0;
  while (total > budgetBytes && shortened < savings.length) total -= savings[shortened++]!.bytes;
  if (total <= budgetBytes) return result({ omittedTurns: forced, shortenedResults: shortened });

  // Every older result is shortened and it is still too long: leave out older turns, oldest first.
  let omitted = forced;
  while (total > budgetBytes && omitted < groups.length) {
    let keptBytes = groupBytes[omitted]!;
    for (const saving of savings) if (saving.group === omitted) keptBytes -= saving.bytes;
    total -= keptBytes;
    omitted += 1;
  }
  return result({
    omittedTurns: omitted,
    shortenedResults: savings.filter((saving) => saving.group >= omitted).length,
  });
}

/**
 * Pure: the messages a fit sends from the whole history — the oldest `omittedTurns` turns left
 * out, then the first `shortenedResults` older tool results over 2 KiB shortened. The agent and
 * `home-agent verify` both build the sent history with it.
 */
export function applyFit(messages: readonly ConversationMessage[], fit: ContextFit): ConversationMessage[] {
  if (fit.omittedTurns === 0 && fit.shortenedResults === 0) return [...messages];
  const layout = layoutOf(messages);
  const from = layout.olderStarts[fit.omittedTurns] ?? layout.current;
  const sent: ConversationMessage[] = [];
  let shortened = 0;
  for (let index = from; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (index < layout.current && shortened < fit.shortenedResults && isShortenable(message)) {
      sent.push(shortenToolResult(message));
      shortened += 1;
    } else sent.push(message);
  }
  return sent;
}
