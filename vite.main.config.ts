import { defineConfig } from 'vite';

// Electron main: native and Node-only packages stay external (rebuilt for Electron, unpacked from asar).
export default defineConfig({
  build: {
    rollupOptions: {
      external: ['electron', 'better-sqlite3', 'serialport', /^@serialport\//, 'ws', 'bufferutil', 'utf-8-validate', 'tsx'],
    },
  },
});
