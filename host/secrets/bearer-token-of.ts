import type { IncomingMessage } from 'node:http';

/** The token of a request's `Authorization: Bearer …` header; undefined without one. */
export function bearerTokenOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}
