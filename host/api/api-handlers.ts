import type { ApiInput, ApiMethod, ApiOutput } from '../contract/api-contract.ts';

/** The host's implementation of API methods (inputs already validated). */
export type ApiHandlers = { [M in ApiMethod]: (input: ApiInput<M>) => Promise<ApiOutput<M>> | ApiOutput<M> };

/** The handlers of some methods: one area of the API (conversations, devices, settings, …). */
export type ApiHandlersOf<M extends ApiMethod> = Pick<ApiHandlers, M>;
