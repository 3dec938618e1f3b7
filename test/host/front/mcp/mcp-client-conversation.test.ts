import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { connectOverHttp } from '../../../helpers/mcp-clients.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("an MCP client's calls in the history", () => {
  it('land in one conversation per client name, whichever session calls, each turn saying the client asked', async () => {
    const served = await serveTestHost(cleanups, {
      dataDirPrefix: 'home-agent-mcp-conversation-',
      token: 'web-token-of-the-person-0123456789',
      mcp: true,
    });
    const url = `${served.server.url}mcp`;
    const session = async (clientName: string) => {
      const connected = await connectOverHttp({ url, token: served.mcp!.token, clientName });
      cleanups.push(() => connected.close());
      return connected;
    };
    const starts: Extract<AgentEvent, { type: 'turn/start' }>[] = [];
    cleanups.push(served.host.events.subscribe((event) => event.type === 'turn/start' && void starts.push(event)));
    const first = await session('Claude Desktop');
    const second = await session('Claude Desktop');
    const other = await session('Cursor');
    for (const client of [first, second, other]) await client.call('output_list_channels', {});
    expect(starts.map((start) => start.by)).toEqual(['Claude Desktop', 'Claude Desktop', 'Cursor']);
    expect(starts[0]!.conversationId).toBe(starts[1]!.conversationId);
    expect(starts[2]!.conversationId).not.toBe(starts[0]!.conversationId);
    const titles = served.host.store
      .listConversations()
      .map((conversation) => conversation.title)
      .sort();
    expect(titles).toEqual(['MCP: Claude Desktop', 'MCP: Cursor']);
  });
});
