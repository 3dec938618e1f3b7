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

  /** `sent` runs once when the request whose params (or whose params' `arguments`, an object of its own) are `key` has left. */
  expect(key: object, sent: () => void): void {
    this.byParams.set(key, sent);
  }

  /** The transport is sending `message`: keeps its listener under its JSON-RPC id. */
  claim(message: JSONRPCMessage): (() => void) | undefined {
    if (!('method' in message) || !('id' in message) || typeof message.params !== 'object' || message.params === null)
      return undefined;
    // Asking for progress makes the SDK send a copy of the params (with `_meta`): its `arguments` are still ours.
    const { arguments: args } = message.params as { arguments?: unknown };
    const key = this.byParams.has(message.params) ? message.params : typeof args === 'object' ? args : undefined;
    const sent = key ? this.byParams.get(key) : undefined;
    if (sent === undefined || key === undefined || key === null) return undefined;
    this.byParams.delete(key);
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
