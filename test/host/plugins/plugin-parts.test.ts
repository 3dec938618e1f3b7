import { describe, expect, it } from 'vitest';
import { Emitter } from '../../../core/events/emitter.ts';
import type { PluginPart } from '../../../host/plugins/plugin-part.ts';
import { PluginParts } from '../../../host/plugins/plugin-parts.ts';

/** A part running one plugin, `server-a`, that can be trusted and is still starting. */
function serverPart(): PluginPart & { trusted: boolean; changes: Emitter<void> } {
  const part = {
    plugins: [],
    problems: ['server-b: no command'],
    changes: new Emitter<void>({ name: 'test changes' }),
    trusted: false,
    listing: (name: string, enabled: boolean) =>
      name === 'server-a'
        ? { trusted: part.trusted, ...(enabled ? { status: 'connecting' as const } : {}) }
        : undefined,
    trust: (name: string, trusted: boolean) => {
      if (name !== 'server-a') return undefined;
      part.trusted = trusted;
      return 'applied' as const;
    },
    whenSettled: async () => ['server-a'],
  };
  return part;
}

describe('PluginParts', () => {
  it('lists, trusts and waits for a plugin through the part that runs it, and only that one', async () => {
    const part = serverPart();
    const parts = new PluginParts([{ plugins: [] }, part]);
    expect(parts.listing('server-a', true)).toEqual({ trusted: false, status: 'connecting' });
    expect(parts.listing('system', true)).toBeUndefined();
    expect(parts.setTrusted('server-a', true)).toBe('applied');
    expect(part.trusted).toBe(true);
    expect(parts.problems()).toEqual(['server-b: no command']);
    expect(await parts.whenSettled({ timeoutMs: 1 })).toEqual(['server-a']);
  });

  it('refuses to trust a plugin no part trusts, in the words its list declares, even with no part running', () => {
    expect(new PluginParts([]).setTrusted('system', true)).toEqual({
      refused: "system is not an MCP server's plugin: only MCP servers are trusted or not",
    });
  });

  it('tells of its parts’ changes until the subscription is stopped', () => {
    const part = serverPart();
    const parts = new PluginParts([part]);
    let changed = 0;
    const stop = parts.subscribe({ changed: () => (changed += 1), approvalsChanged: () => {} });
    part.changes.emit();
    stop();
    part.changes.emit();
    expect(changed).toBe(1);
    expect(part.changes.size).toBe(0);
  });
});
