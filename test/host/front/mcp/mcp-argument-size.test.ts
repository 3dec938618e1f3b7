import { afterEach, describe, expect, it } from 'vitest';
import { connectOverHttp, textOf } from '../../../helpers/mcp-clients.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('an MCP call over the host as serve wires it', () => {
  it('is refused before it runs when its arguments are over maxToolArgumentBytes (64 KiB unless set), naming the bound', async () => {
    const served = await serveTestHost(cleanups, {
      dataDirPrefix: 'home-agent-mcp-argument-size-',
      token: 'web-token-of-the-person-0123456789',
      mcp: true,
    });
    const connected = await connectOverHttp({ url: `${served.server.url}mcp`, token: served.mcp!.token });
    cleanups.push(() => connected.close());
    // 70,000 characters of text: within the 256 KiB body bound, over the 65,536-byte default.
    const result = await connected.call('output_send__chat', { text: 'x'.repeat(70_000) });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('at most 65,536 are allowed (the setting maxToolArgumentBytes)');
    const small = await connected.call('output_send__chat', { text: 'hello' });
    expect(small.isError).not.toBe(true);
  });
});
