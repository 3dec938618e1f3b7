import type { Page } from '@playwright/test';

/** Collects what must never happen on the page: uncaught errors, console errors (CSP violations among them). */
export function watchForPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} @ ${JSON.stringify(message.location())}`);
  });
  return problems;
}
