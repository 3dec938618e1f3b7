import type { LaunchOptions } from '@playwright/test';

/**
 * Debian's Chromium, headless, with nothing that phones home: Playwright never downloads a
 * browser here (the machines reach no browser CDN), so every launch goes through these options.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
