import type { Socket } from 'node:net';
import { z } from 'zod';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { HostNotice } from '../contract/api-contract.ts';
import type { ApiHandlers } from '../api/api-handlers.ts';
import { apiFailureOf, dispatchApiCall } from '../api/dispatch-api-call.ts';
import { readLines, writeLine } from './link-lines.ts';
import type { LinkDoor } from './hold-home-link.ts';

const apiRequestSchema = z.object({
  id: z.number().int().nonnegative(),
  method: z.string().max(200),
  input: z.unknown().optional(),
});

/**
 * The `api` door: the host's API (the same contract, checks and handlers as the window's and the
 * web's) as JSON Lines — `{id, method, input}` answered `{id, result}` or `{id, error}` — and every
 * agent event and notice as `{event}` / `{notice}` lines, so another process of the home (`devices`,
 * a terminal answering questions) sees what the window sees.
 */
export function apiDoor(home: {
  handlers: ApiHandlers;
  events: { subscribe(listener: (event: AgentEvent) => void): () => void };
  notices: { subscribe(listener: (notice: HostNotice) => void): () => void };
}): LinkDoor {
  return (socket: Socket) =>
    new Promise<void>((resolve) => {
      const stopEvents = home.events.subscribe((event) => void writeLine(socket, { event }));
      const stopNotices = home.notices.subscribe((notice) => void writeLine(socket, { notice }));
      readLines(socket, (line) => {
        const request = apiRequestSchema.safeParse(safeJson(line));
        if (!request.success) {
          writeLine(socket, { error: { status: 400, message: 'a line on the api door is not {id, method, input}' } });
          return;
        }
        const { id, method, input } = request.data;
        dispatchApiCall(home.handlers, method, input).then(
          (result) => writeLine(socket, { id, result }),
          (error: unknown) => writeLine(socket, { id, error: apiFailureOf(error) }),
        );
      });
      socket.once('close', () => {
        stopEvents();
        stopNotices();
        resolve();
      });
    });
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
