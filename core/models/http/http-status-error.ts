import { parseContextOverflow } from '../context-overflow.ts';
import { ModelError } from '../model-error.ts';
import type { ModelRequestContext } from './model-request-context.ts';
import { redactSecrets } from './redact-secrets.ts';

const NO_TOOLS = /does not support tools|tools? (are |is )?not supported|tool calling is not supported|--jinja/i;

/** True when an error body says the model or server cannot take tools (the wordings of local servers and vLLM). */
export function saysNoToolSupport(message: string): boolean {
  return NO_TOOLS.test(message);
}

/**
 * True when an error reply says the prompt is longer than the model's window (any provider's
 * wording; llama.cpp answered it with a 500 before it used 400): sending it again cannot help.
 */
export function saysContextExceeded(status: number, message: string): boolean {
  return (status === 400 || status === 413 || status === 500) && parseContextOverflow(message) !== undefined;
}

/**
 * The ModelError for a non-2xx reply, with a message a person can act on. `retries` is how many
 * retries were spent before giving up. The API key never appears in it.
 */
export function httpStatusError(options: {
  context: ModelRequestContext;
  status: number;
  bodyMessage: string;
  retries: number;
}): ModelError {
  const { context, status, retries } = options;
  const detail = options.bodyMessage === '' ? `HTTP ${status}` : `HTTP ${status}: ${options.bodyMessage}`;
  const afterRetries = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
  const make = (kind: ModelError['kind'], message: string): ModelError =>
    new ModelError({
      kind,
      provider: context.provider,
      status,
      message: redactSecrets(`${context.provider}: ${message}`, context.secrets),
    });

  if (saysNoToolSupport(options.bodyMessage)) {
    return make(
      'no_tool_support',
      `model "${context.model}" does not support tools (${detail}). Choose a model with tool support${context.toolSupportAdvice ? ` (${context.toolSupportAdvice})` : ''}.`,
    );
  }
  if (saysContextExceeded(status, options.bodyMessage)) {
    return make(
      'context_exceeded',
      `the request is longer than model "${context.model}"'s context window (${detail}).`,
    );
  }
  if (status === 401 || status === 403) {
    const sent = context.secrets.length > 0 ? 'the API key was refused' : 'no API key was sent';
    return make(
      'auth',
      `${sent} by ${context.baseUrl} (${detail}). Check the key: put it in an environment variable and pass --api-key-env VAR.`,
    );
  }
  if (status === 404) {
    return make(
      'model_not_found',
      `model "${context.model}" not found at ${context.baseUrl} (${detail}). List the models with \`home-agent models --provider ${context.provider}\`${context.modelNotFoundAdvice ?? ''}, and check the base URL.`,
    );
  }
  if (status === 429) {
    return make(
      'rate_limit',
      `rate limited by ${context.baseUrl}${afterRetries} (${detail}). Wait a little and try again, or check the account's quota.`,
    );
  }
  if (status >= 500) {
    return make('server', `the server at ${context.baseUrl} failed${afterRetries} (${detail}). Try again later.`);
  }
  return make('server', `the server at ${context.baseUrl} rejected the request (${detail}).`);
}
