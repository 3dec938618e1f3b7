import { apiContract, type ApiMethod, type ApiInput, type ApiOutput } from '../contract/api-contract.ts';

/** The host's implementation of every API method (inputs already validated). */
export type ApiHandlers = { [M in ApiMethod]: (input: ApiInput<M>) => Promise<ApiOutput<M>> | ApiOutput<M> };

/** An API failure a transport turns into a status code and a message a person can act on. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 500,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Validates an untrusted call against the contract, runs it, and validates the answer: every
 * transport (IPC, HTTP) goes through here, so the renderer is never trusted.
 */
export async function dispatchApiCall(handlers: ApiHandlers, method: string, input: unknown): Promise<unknown> {
  if (!Object.hasOwn(apiContract, method)) throw new ApiError(404, `unknown API method '${method}'`);
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
