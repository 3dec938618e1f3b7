import type { Socket } from 'node:net';
import { z } from 'zod';
import { apiContract, type ApiInput, type ApiMethod, type ApiOutput } from '../contract/api-contract.ts';
import { ApiError, type ApiErrorStatus } from '../api/api-error.ts';
import { readLines, writeLine } from './link-lines.ts';

const answerSchema = z.object({
  id: z.number().optional(),
  result: z.unknown().optional(),
  error: z.object({ status: z.number(), message: z.string() }).passthrough().optional(),
  event: z.unknown().optional(),
  notice: z.unknown().optional(),
});

/**
 * The API of the running host, called over its `api` door: each answer checked against the contract
 * as the window's are. Events and notices go to `onEvent`/`onNotice`. A connection that closes fails
 * every call still waiting (the host is gone: nothing is known of what it did).
 */
export class LinkApiClient {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  onEvent: (event: unknown) => void = () => undefined;
  onNotice: (notice: unknown) => void = () => undefined;
  readonly closed: Promise<void>;

  constructor(private readonly socket: Socket) {
    readLines(socket, (line) => this.receive(line));
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        for (const { reject } of this.waiting.values())
          reject(new Error('the Home Agent host closed the connection before it answered'));
        this.waiting.clear();
        resolve();
      }),
    );
  }

  async call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    if (!writeLine(this.socket, { id, method, input })) {
      this.waiting.delete(id);
      throw new Error('the Home Agent host is no longer reachable');
    }
    return apiContract[method].output.parse(await answer) as ApiOutput<M>;
  }

  close(): void {
    this.socket.end();
  }

  private receive(line: string): void {
    let parsed;
    try {
      parsed = answerSchema.safeParse(JSON.parse(line));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const { id, result, error, event, notice } = parsed.data;
    if (event !== undefined) this.onEvent(event);
    if (notice !== undefined) this.onNotice(notice);
    if (id === undefined) return;
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    if (error) waiter.reject(new ApiError(error.status as ApiErrorStatus, error.message));
    else waiter.resolve(result);
  }
}
