import { ModelError } from '../model-error.ts';

/** Which request parameter, for which model at which server. */
export interface RefusedParameterKey {
  baseUrl: string;
  model: string;
  parameter: string;
}

/**
 * Request parameters a server refused for a model (HTTP 400 naming them), remembered so that each
 * is refused once: keyed by base URL and model, kept for the life of the process.
 */
export class RefusedParameters {
  private readonly refused = new Set<string>();

  has(key: RefusedParameterKey): boolean {
    return this.refused.has(keyText(key));
  }

  add(key: RefusedParameterKey): void {
    this.refused.add(keyText(key));
  }
}

/** The process-wide memory: adapters are re-created per run or settings change, the refusal stays. */
export const refusedParameters = new RefusedParameters();

/**
 * True when `error` is an HTTP 400 whose body names `parameter` (OpenAI: "Unsupported parameter:
 * 'parallel_tool_calls' is not supported with this model."; the ModelError message carries it).
 */
export function isParameterRefusal(error: unknown, parameter: string): boolean {
  if (!ModelError.isInstance(error) || error.status !== 400) return false;
  const name = parameter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${name}($|[^A-Za-z0-9_])`).test(error.message);
}

function keyText(key: RefusedParameterKey): string {
  return JSON.stringify([key.baseUrl.replace(/\/+$/, ''), key.model, key.parameter]);
}
