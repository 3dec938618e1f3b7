import { utf8Length } from '../text/utf8-length.ts';
import { deadlineSignal } from '../text/deadline-signal.ts';

/** How long one model reply may take in all, by default (keep-alive bytes do not extend it). */
export const DEFAULT_REPLY_TIMEOUT_MS = 300_000;
/** How much one model reply may carry in all (text and tool-call arguments, UTF-8), by default. */
export const DEFAULT_REPLY_MAX_BYTES = 1024 * 1024;

const REPLY_LIMIT_MARK = Symbol.for('home-agent.ReplyLimitError');

/** A reply stopped because it hit one of its budgets; the message says which, and the setting that sets it. */
export class ReplyLimitError extends Error {
  readonly [REPLY_LIMIT_MARK] = true;
  override readonly name = 'ReplyLimitError';

  constructor(
    readonly limit: 'time' | 'size',
    message: string,
  ) {
    super(message);
  }

  static isInstance(value: unknown): value is ReplyLimitError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REPLY_LIMIT_MARK] === true;
  }
}

/** The reply's deadline as a signal, and a check of its size as parts arrive. */
export function replyBudget(options: { timeoutMs: number; maxBytes: number; label: string }): {
  signal: AbortSignal;
  /** Counts a part's bytes; throws ReplyLimitError once the reply is over its size. */
  count(text: string): void;
  /** The error for a reply its deadline stopped. */
  timeoutError(): ReplyLimitError;
} {
  let bytes = 0;
  return {
    signal: deadlineSignal(options.timeoutMs),
    count(text) {
      bytes += utf8Length(text);
      if (bytes > options.maxBytes)
        throw new ReplyLimitError(
          'size',
          `${options.label}: the model's reply grew past ${options.maxBytes} bytes (replyMaxBytes), so it was stopped`,
        );
    },
    timeoutError: () =>
      new ReplyLimitError(
        'time',
        `${options.label}: the model's reply took longer than ${Math.round(options.timeoutMs / 1000)} s (replyTimeoutMs), so it was stopped`,
      ),
  };
}
