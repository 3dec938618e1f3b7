import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const projectDir = fileURLToPath(new URL('./', import.meta.url));

// The renderer alone. `npm run build:renderer` writes dist/renderer (what `home-agent serve` and
// the Playwright tests load); Electron Forge's Vite plugin passes `forgeConfigSelf` and expects
// .vite/renderer/<name> (what electron/main.ts loads). Assets are relative: Electron loads from file.
export default defineConfig((env) => {
  const forgeName = (env as { forgeConfigSelf?: { name?: string } }).forgeConfigSelf?.name;
  return {
    root: `${projectDir}renderer`,
    base: './',
    plugins: [react()],
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
