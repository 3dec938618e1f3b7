// A loopback MCP server behind OAuth 2.1, as small as the tests need: protected-resource and
// authorization-server metadata, registration, an authorization endpoint that signs in at once
// (302 to the redirect with a code), a token endpoint (code with PKCE, refresh), and /mcp answering
// initialize and tools/list with JSON only to a valid bearer token (401 with WWW-Authenticate otherwise).
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OAuthServer {
  url: string;
  /** The access token it accepts now; `revoke` makes every token and refresh token invalid. */
  revoke(): void;
  /** Requests seen, by path. */
  seen: string[];
  close(): Promise<void>;
}

export async function startOAuthServer(): Promise<OAuthServer> {
  let base = '';
  let generation = 1;
  const challenges = new Map<string, string>();
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', base);
    seen.push(url.pathname);
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const json = (status: number, value: unknown, headers: Record<string, string> = {}): void =>
        void response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
        return json(200, { resource: `${base}/mcp`, authorization_servers: [base] });
      if (url.pathname === '/.well-known/oauth-authorization-server')
        return json(200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      if (url.pathname === '/register') {
        const metadata = JSON.parse(body) as Record<string, unknown>;
        return json(201, { ...metadata, client_id: 'registered-client' });
      }
      if (url.pathname === '/authorize') {
        const code = `code-${challenges.size + 1}`;
        challenges.set(code, url.searchParams.get('code_challenge') ?? '');
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        return void response.writeHead(302, { location: back.toString() }).end();
      }
      if (url.pathname === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') === 'refresh_token') {
          if (form.get('refresh_token') !== `refresh-${generation}`) return json(400, { error: 'invalid_grant' });
          return json(200, {
            access_token: `access-${generation}`,
            token_type: 'Bearer',
            refresh_token: `refresh-${generation}`,
          });
        }
        const challenge = challenges.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (challenge !== createHash('sha256').update(verifier).digest('base64url'))
          return json(400, { error: 'invalid_grant' });
        return json(200, {
          access_token: `access-${generation}`,
          token_type: 'Bearer',
          refresh_token: `refresh-${generation}`,
        });
      }
      if (url.pathname === '/mcp') {
        if (request.headers.authorization !== `Bearer access-${generation}`)
          return json(
            401,
            { error: 'invalid_token' },
            { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
          );
        if (request.method !== 'POST') return void response.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return void response.writeHead(202).end();
        if (message.method === 'initialize')
          return json(200, {
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'oauth-test', version: '1' },
            },
          });
        if (message.method === 'tools/list')
          return json(200, {
            jsonrpc: '2.0',
            id: message.id,
            result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] },
          });
        return json(200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    revoke: () => void (generation += 1),
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
