import { ModelError } from '../model-error.ts';
import type { ModelRequestContext } from './model-request-context.ts';
import type { RequestGuard } from './request-guard.ts';
import { redactSecrets } from './redact-secrets.ts';

/** The system error code (ECONNREFUSED, ENOTFOUND, …) somewhere in a fetch failure's cause chain. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== 'object' || error === null) return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof record.code === 'string' && /^E[A-Z]+$/.test(record.code)) return record.code;
  if (Array.isArray(record.errors)) {
    for (const inner of record.errors) {
      const code = errorCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return errorCode(record.cause, depth + 1);
}

function causeText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    parts.push(current.message);
    current = current.cause;
  }
  return parts.join(': ');
}

/**
 * The ModelError for a failed fetch or body read. The guard's reason wins (the caller aborted,
 * a timeout fired); otherwise `phase` says whether the reply had started (`body` ⇒ stream_cut).
 */
export function fetchFailureError(options: {
  context: ModelRequestContext;
  guard: RequestGuard;
  error: unknown;
  phase: 'connect' | 'body';
}): ModelError {
  const { context, guard, error } = options;
  if (ModelError.isInstance(error)) return error;
  const make = (kind: ModelError['kind'], message: string): ModelError =>
    new ModelError({
      kind,
      provider: context.provider,
      cause: error,
      message: redactSecrets(`${context.provider}: ${message}`, context.secrets),
    });

  switch (guard.stopped) {
    case 'aborted':
      return make('aborted', 'the request was aborted.');
    case 'first_byte_timeout':
      return make(
        'first_byte_timeout',
        `no reply from ${context.baseUrl} within the first-byte timeout (model "${context.model}" may still be loading; raise the timeout or try again).`,
      );
    case 'idle_timeout':
      return make(
        'idle_timeout',
        `the reply from ${context.baseUrl} stalled (no data within the idle timeout) — the stream was cut off.`,
      );
    case undefined:
      break;
  }
  if (options.phase === 'body') {
    return make(
      'stream_cut',
      `the connection to ${context.baseUrl} broke in the middle of the reply (${causeText(error)}); any tool call in progress was dropped.`,
    );
  }
  const code = errorCode(error);
  if (code === 'ECONNREFUSED')
    return make('connection', `no model server at ${context.baseUrl} — ${context.serverHint}`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return make(
      'connection',
      `cannot resolve the host of ${context.baseUrl} (${code}) — check the base URL and the network.`,
    );
  return make('connection', `cannot reach ${context.baseUrl} (${causeText(error)}) — ${context.serverHint}`);
}
