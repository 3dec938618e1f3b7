import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The path the authorization server sends the browser back to. */
const CALLBACK_PATH = '/callback';

/** What a redirect brought: the code and state, or the authorization server's error. */
export type RedirectAnswer = { code: string; state: string } | { error: string };

/**
 * The loopback redirect of a sign-in (RFC 8252): a listener on 127.0.0.1 that takes the browser's
 * return to `redirectUrl`, hands `{code, state}` (or the server's `error`) to `answered`, and shows the
 * page `answered` resolves with. Only 127.0.0.1 is bound, so nothing off this machine reaches it; the
 * state the answer carries is checked by whoever started the sign-in.
 */
export class LoopbackRedirect {
  private server: http.Server | undefined;
  private port: number | undefined;

  constructor(private readonly answered: (answer: RedirectAnswer) => Promise<string>) {}

  /** Listens (once; later calls resolve at once). */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = http.createServer((request, response) => void this.handle(request, response));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
  }

  /** Where the browser comes back (undefined until it listens). */
  get redirectUrl(): string | undefined {
    return this.port === undefined ? undefined : `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
  }

  /** Stops listening; a sign-in still open then cannot finish. */
  close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.port = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not a sign-in address.\n');
      return;
    }
    const code = url.searchParams.get('code');
    const state = url.searchParams.get('state') ?? '';
    const error = url.searchParams.get('error');
    const answer: RedirectAnswer =
      code !== null
        ? { code, state }
        : {
            error: `${error ?? 'no code'}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`,
          };
    let page: string;
    let status = 200;
    try {
      page = await this.answered(answer);
    } catch (failure) {
      status = 400;
      page = (failure as Error).message;
    }
    // Signed in: the listener's work is done once the page has gone out.
    if (status === 200) response.once('finish', () => void this.close());
    response
      .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
      .end(`${page}\n`);
  }
}
