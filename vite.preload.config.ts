import { defineConfig } from 'vite';

// The preload is bundled into one CommonJS file (sandboxed preloads cannot load modules).
export default defineConfig({
  build: { rollupOptions: { external: ['electron'], output: { format: 'cjs' } } },
});
