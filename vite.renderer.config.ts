import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const projectDir = fileURLToPath(new URL('.//', import.meta.url));

// The renderer alone. `npm run build:renderer` writes dist/renderer (what `home-agent serve` and
// the Playwright tests load); Electron Forge's Vite plugin passes `forgeConfigSelf` and expects
// .vite/renderer/<name> (what electron/main.ts loads). Assets are relative: Electron loads from file.
/**
 * The dev server only: React Fast Refresh injects an inline module script, which the page's strict
 * CSP would block (a blank window under `electron-forge start`). Built files keep the strict CSP.
 */
function devServerCsp(): Plugin {
  return {
    name: 'home-agent-dev-server-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace("default-src 'self';", "default-src 'self'; script-src 'self' 'unsafe-inline';"),
  };
}

export default defineConfig((env) => {
  const forgeName = (env as { forgeConfigSelf?: { name?: string } }).forgeConfigSelf?.name;
  return {
    root: `${projectDir}renderer`,
    base: './',
    plugins: [react(), devServerCsp()],
    build: {
      outDir: forgeName ? `${projectDir}.vite/renderer/${forgeName}` : `${projectDir}dist/renderer`,
      emptyOutDir: true,
      // Electron 41 and current browsers: no legacy transforms.
      target: 'es2023',
      sourcemap: true,
    },
    server: { strictPort: true },
  };
});
