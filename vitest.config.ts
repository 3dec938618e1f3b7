import { defineConfig } from 'vitest/config';

// Two projects, the same settings but isolation. `test/core` and `test/renderer` run in-process code
// that keeps no state between files (no module-level stores; env, timers and globals restored after
// each test), so each worker imports their modules once and runs file after file (isolate: false):
// without it, each of their ~110 files paid a fresh process and a fresh import. Everything else
// (hosts, stores, serial ports, brokers, simulators, spawned processes) keeps a fresh module graph
// per file.
const pureFolders = ['test/core/**/*.test.ts', 'test/renderer/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Entries tests start as processes, compiled once for the run (test/helpers/compiled-entries.ts).
    globalSetup: ['test/helpers/compile-entries-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'in-process', include: pureFolders, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...pureFolders],
        },
      },
    ],
  },
});
