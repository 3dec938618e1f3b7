import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Tells a call when its request has left the host, for `markSent`: the caller registers the request's
 * `params` object before handing it to the SDK; the transport claims it when that message goes out
 * (the SDK sends the params object it was given) and fires it once the message was written (stdio)
 * or reached the server (HTTP).
 */
export class SentWatch {
  private readonly byParams = new WeakMap<object, () => void>();
  private readonly byId = new Map<string | number, () => void>();

  /** `sent` runs once when the request whose params are `params` has left. */
  expect(params: object, sent: () => void): void {
    this.byParams.set(params, sent);
  }

  /** The transport is sending `message`: keeps its listener under its JSON-RPC id. */
  claim(message: JSONRPCMessage): (() => void) | undefined {
    if (!('method' in message) || !('id' in message) || typeof message.params !== 'object' || message.params === null)
      return undefined;
    const sent = this.byParams.get(message.params);
    if (sent === undefined) return undefined;
    this.byParams.delete(message.params);
    this.byId.set(message.id, sent);
    return sent;
  }

  /** Fires (once) and forgets the listener of the request with this id. */
  fire(id: string | number): void {
    const sent = this.byId.get(id);
    this.byId.delete(id);
    sent?.();
  }

  /** Forgets the listener of this id without firing it (the request never left). */
  drop(id: string | number): void {
    this.byId.delete(id);
  }
}
