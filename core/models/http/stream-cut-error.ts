import { ModelError } from '../model-error.ts';
import type { ModelRequestContext } from './model-request-context.ts';

/** The error for a body that ended before the format's terminator: the reply is incomplete. */
export function streamCutError(context: ModelRequestContext, terminator: string): ModelError {
  return new ModelError({
    kind: 'stream_cut',
    provider: context.provider,
    message: `${context.provider}: the reply from ${context.baseUrl} ended before ${terminator}; the stream was cut and any tool call in progress was dropped.`,
  });
}
