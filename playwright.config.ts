import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './test/e2e/helpers/chromium-launch-options.ts';

// End-to-end: the built renderer served by a real `home-agent serve`, driven in Debian's Chromium.
// One worker: each test starts its own host, and the machine has two cores shared with the rest.
export default defineConfig({
  testDir: './test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
