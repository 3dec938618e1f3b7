import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Emitter } from '../../../../core/events/emitter.ts';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import type { ApiHandlers } from '../../../../host/api/api-handlers.ts';
import { PendingElicitations } from '../../../../host/approvals/pending-elicitations.ts';
import { startWebServer } from '../../../../host/front/web/web-server.ts';

const TOKEN = 'presence-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a browser’s live stream as a front end that can show a question', () => {
  it('counts while its socket is open, and no longer once it closes', async () => {
    const staticDir = mkdtempSync(path.join(tmpdir(), 'home-agent-presence-'));
    cleanups.push(() => rmSync(staticDir, { recursive: true, force: true }));
    const elicitations = new PendingElicitations({ notify: () => {}, log: () => {} });
    let closed: () => void = () => {};
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const server = await startWebServer({
      handlers: {} as ApiHandlers,
      bus: new Emitter<AgentEvent>({ name: 'test events' }),
      staticDir,
      token: TOKEN,
      onClientOpened: () => {
        const close = elicitations.frontEndOpened();
        return () => {
          close();
          closed();
        };
      },
    });
    cleanups.push(() => server.close());
    expect(elicitations.hasFrontEnd()).toBe(false);
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}api/events?token=${TOKEN}`);
    await new Promise<void>((resolve) => socket.on('open', () => resolve()));
    expect(elicitations.hasFrontEnd()).toBe(true);
    socket.close();
    await gone;
    expect(elicitations.hasFrontEnd()).toBe(false);
    // With nobody to show it to, a question is declined at once.
    const answer = await elicitations.ask({
      plugin: 'mcp-x',
      message: 'which?',
      requestedSchema: { type: 'object', properties: {} },
      defaults: {},
      signal: new AbortController().signal,
    });
    expect(answer).toEqual({ action: 'decline' });
  });
});
