import type { ModelRequest } from './model-adapter.ts';

/** What every wire format's request body is built from: the request, the model, its output limit. */
export interface RequestBodyOptions {
  request: ModelRequest;
  model: string;
  maxTokens?: number;
}
