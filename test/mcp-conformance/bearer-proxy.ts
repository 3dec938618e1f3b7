// A loopback proxy that adds `Authorization: Bearer <credential>` to every request it forwards: the
// official MCP conformance suite has no way to send a credential, and `serve --mcp` needs one. The
// request's own Host and Origin are passed on untouched, so the server's DNS-rebinding checks are
// what the suite tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts the proxy in front of `target` (the server's origin); resolves with its origin and a close function. */
export async function startBearerProxy(options: {
  target: string;
  credential: string;
}): Promise<{ origin: string; close(): Promise<void> }> {
  const upstream = new URL(options.target);
  const server = http.createServer((request, response) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, authorization: `Bearer ${options.credential}` },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`proxy: ${error.message}`);
    });
    response.on('close', () => forwarded.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
