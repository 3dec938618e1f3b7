import { apiContract, type ApiFailure, type ApiMethod } from '../contract/api-contract.ts';
import { ApiError } from './api-error.ts';
import type { ApiHandlers } from './api-handlers.ts';

/**
 * Validates an untrusted call against the contract, runs it, and validates the answer: every
 * transport (IPC, HTTP) goes through here, so the renderer is never trusted.
 */
export async function dispatchApiCall(handlers: ApiHandlers, method: string, input: unknown): Promise<unknown> {
  // The name comes from the URL: quoted cut short, so a refusal never echoes what it refused.
  if (!Object.hasOwn(apiContract, method))
    throw new ApiError(404, `unknown API method '${method.length > 100 ? `${method.slice(0, 100)}…` : method}'`);
  const entry = apiContract[method as ApiMethod];
  const parsed = entry.input.safeParse(input ?? {});
  if (!parsed.success) {
    throw new ApiError(
      400,
      `invalid input for ${method}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ')}`,
    );
  }
  const handler = handlers[method as ApiMethod] as (value: unknown) => unknown;
  const output = await handler(parsed.data);
  const checked = entry.output.safeParse(output);
  if (!checked.success)
    throw new ApiError(500, `the host produced an invalid answer for ${method}: ${checked.error.message}`);
  return checked.data;
}

/** Any failure as the contract's failure shape, for a transport to send (never a stack). */
export function apiFailureOf(error: unknown): ApiFailure {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      message: error.message,
      ...(error.field !== undefined ? { field: error.field } : {}),
      ...(error.issues !== undefined ? { issues: error.issues } : {}),
    };
  }
  return { status: 500, message: (error as Error)?.message ?? String(error) };
}
