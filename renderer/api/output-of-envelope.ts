import { apiContract, type ApiFailure, type ApiMethod, type ApiOutput } from '../../host/contract/api-contract.ts';
import { ApiCallError } from './api-client.ts';

/** An answer's envelope as a transport read it; older hosts' failures carry only a message. */
export type AnswerEnvelope =
  { ok: true; result: unknown } | { ok: false; error: Partial<ApiFailure> & Pick<ApiFailure, 'message'> };

/**
 * The output an envelope carries, checked against the method's contract; a failure, or an output
 * the contract does not allow, throws an ApiCallError. `status` (HTTP's) wins over the envelope's.
 */
export function outputOfEnvelope<M extends ApiMethod>(options: {
  method: M;
  envelope: AnswerEnvelope;
  status?: number;
}): ApiOutput<M> {
  const { method, envelope } = options;
  if (!envelope.ok) {
    const { message, field, issues } = envelope.error;
    throw new ApiCallError({
      method,
      message,
      status: options.status ?? envelope.error.status,
      ...(field !== undefined ? { field } : {}),
      ...(issues !== undefined ? { issues } : {}),
    });
  }
  const output = apiContract[method].output.safeParse(envelope.result);
  if (!output.success)
    throw new ApiCallError({
      method,
      message: `The host's answer to ${method} does not match the contract: ${output.error.message}`,
    });
  return output.data as ApiOutput<M>;
}
