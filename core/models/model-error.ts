/** What went wrong with a model request; each kind has its own message a person can act on. */
export type ModelErrorKind =
  | 'connection'
  | 'auth'
  | 'model_not_found'
  | 'rate_limit'
  | 'server'
  | 'no_tool_support'
  | 'stream_cut'
  | 'first_byte_timeout'
  | 'idle_timeout'
  | 'bad_chunk'
  | 'aborted'
  | 'incomplete_tool_call'
  | 'context_exceeded';

const MODEL_ERROR_MARK = Symbol.for('home-agent.ModelError');

/** A failed model request. `isInstance` works across realms. */
export class ModelError extends Error {
  readonly [MODEL_ERROR_MARK] = true;
  readonly kind: ModelErrorKind;
  readonly provider: string;
  readonly status?: number;

  constructor(options: { kind: ModelErrorKind; provider: string; message: string; status?: number; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelError';
    this.kind = options.kind;
    this.provider = options.provider;
    if (options.status !== undefined) this.status = options.status;
  }

  static isInstance(value: unknown): value is ModelError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MODEL_ERROR_MARK] === true;
  }
}
