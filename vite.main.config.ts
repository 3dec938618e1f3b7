import { defineConfig } from 'vite';

// Electron main, as an ES module (package.json says "type": "module"; Electron ≥ 28 loads ESM
// mains). Native and Node-only packages stay external: rebuilt for Electron, unpacked from asar.
export default defineConfig({
  build: {
    lib: { entry: 'electron/main.ts', formats: ['es'], fileName: () => '[name].js' },
    rollupOptions: {
      external: [
        'electron',
        'better-sqlite3',
        'serialport',
        /^@serialport\//,
        'ws',
        'bufferutil',
        'utf-8-validate',
        'tsx',
        /^node:/,
      ],
    },
  },
});
