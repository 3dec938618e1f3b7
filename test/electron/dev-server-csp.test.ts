import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { ELECTRON_CSP, electronCsp } from '../../electron/content-security-policy.ts';
import { REPO_ROOT } from '../helpers/run-cli.ts';

let server: ViteDevServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the renderer under the Vite dev server (electron-forge start)', () => {
  it('lets React Fast Refresh run its inline script in development, and only there', async () => {
    server = await createServer({
      configFile: path.join(REPO_ROOT, 'vite.renderer.config.ts'),
      server: { port: 0, strictPort: false, host: '127.0.0.1' },
      logLevel: 'silent',
    });
    await server.listen();
    const address = server.httpServer?.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(html).toContain('/@react-refresh');
    expect(html).toContain("script-src 'self' 'unsafe-inline'");
    expect(electronCsp({ devServer: true })).toContain("script-src 'self' 'unsafe-inline'");
    expect(electronCsp({ devServer: false })).toBe(ELECTRON_CSP);
    expect(ELECTRON_CSP).toContain("script-src 'self';");
  });
});
