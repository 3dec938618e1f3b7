import type { PluginPart, PluginStatusFields, SignInStart } from './plugin-part.ts';
import { notTrustable } from '../contract/builtin/builtin-plugin-contract.ts';

/** How long `ask` and `mcp` wait for the enabled plugins to be ready or failed before the first request. */
export const PLUGIN_READY_WAIT_MS = 10_000;

/** The running built-in plugins, as the API and the front ends see them, naming none. */
export class PluginParts {
  constructor(private readonly parts: readonly PluginPart[]) {}

  /** The part of a kind (tests, the bench: e.g. a server's connection). */
  of<T>(kind: abstract new (...args: never[]) => T): T | undefined {
    return this.parts.find((part): part is PluginPart & T => part instanceof kind);
  }

  /** What `plugins/list` adds to a plugin, from the part it belongs to. */
  listing(name: string, enabled: boolean): PluginStatusFields | undefined {
    for (const part of this.parts) {
      const fields = part.listing?.(name, enabled);
      if (fields) return fields;
    }
    return undefined;
  }

  /** Every part's problems of its configuration. */
  problems(): string[] {
    return this.parts.flatMap((part) => part.problems ?? []);
  }

  /** Trusts a plugin or takes the trust back; `refused` with why when no part trusts it. */
  setTrusted(name: string, trusted: boolean, declarationHash?: string): 'applied' | 'changed' | { refused: string } {
    for (const part of this.parts) {
      const result = part.trust?.(name, trusted, declarationHash);
      if (result) return result;
    }
    return { refused: notTrustable(name) };
  }

  /** Starts the sign-in to a plugin's server; `refused` with why when no part signs it in. */
  async signIn(name: string): Promise<SignInStart | { refused: string }> {
    for (const part of this.parts) {
      const result = await part.signIn?.(name);
      if (result) return result;
    }
    return { refused: notSignedIn(name) };
  }

  /** Signs out of a plugin's server; `refused` with why when no part signs it in. */
  async signOut(name: string): Promise<{ removed: boolean } | { refused: string }> {
    for (const part of this.parts) {
      const result = await part.signOut?.(name);
      if (result) return result;
    }
    return { refused: notSignedIn(name) };
  }

  /** Resolves once every part's enabled plugins are ready or failed (at most `timeoutMs`); the names still starting. */
  async whenSettled(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<string[]> {
    const waiting = await Promise.all(this.parts.map((part) => part.whenSettled?.(options) ?? Promise.resolve([])));
    return waiting.flat();
  }

  /** After a toggle: each part starts or stops what its enabled plugins run. */
  sync(): void {
    for (const part of this.parts) part.sync?.();
  }

  /** Tells `changed` and `approvalsChanged` what the parts report; returns the function that stops it. */
  subscribe(on: { changed: () => void; approvalsChanged: () => void }): () => void {
    const stops = this.parts.flatMap((part) => [
      part.changes?.subscribe(on.changed),
      part.approvalsChanged?.subscribe(on.approvalsChanged),
    ]);
    return () => {
      for (const stop of stops) stop?.();
    };
  }

  /** Stops what the parts started (a host that failed to start). */
  async dispose(): Promise<void> {
    await Promise.all(this.parts.map((part) => part.dispose?.()));
  }
}

function notSignedIn(name: string): string {
  return `${name} does not sign in: only the plugin of a remote server that asks for it does`;
}
