import type { Page } from '@playwright/test';
import { callHost } from './helpers/call-host.ts';
import { expect, openPage, send, test } from './helpers/harness.ts';
import type { RunningHost } from './helpers/start-host.ts';

/** What the host stored: the witness, independent of what the page shows. */
async function stored(host: RunningHost): Promise<{ id: string; title: string }[]> {
  return ((await callHost(host, 'conversations/list')) as { conversations: { id: string; title: string }[] })
    .conversations;
}

function openId(page: Page): string | null {
  return new URL(page.url()).searchParams.get('conversation');
}

function row(page: Page, id: string) {
  return page.locator(`[data-testid="conversation-row"][data-conversation-id="${id}"]`);
}

test('conversations start at the first message, are titled from it, kept in the address across reloads, renamed, searched and deleted', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([{ text: 'The porch light is on.' }, { text: 'It is sunny.' }]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await expect(page.getByTestId('composer-input')).toBeFocused();
  expect(openId(page)).toBeNull();

  await send(page, 'Switch the porch light on\nplease');
  const porch = openId(page);
  expect(porch).toMatch(/^[0-9a-f-]{36}$/);
  expect(await stored(host)).toEqual([expect.objectContaining({ id: porch, title: 'Switch the porch light on' })]);
  await expect(row(page, porch!).getByTestId('conversation-item')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('chat-title')).toHaveText('Switch the porch light on');

  // New conversation stores nothing until its first message.
  await page.getByTestId('new-conversation-button').click();
  await expect.poll(() => openId(page)).toBeNull();
  await expect(page.getByTestId('turn')).toHaveCount(0);
  expect(await stored(host)).toHaveLength(1);
  await send(page, 'What is the weather?');
  const weather = openId(page);
  expect(weather).not.toBe(porch);
  expect((await stored(host)).map((entry) => entry.title)).toEqual([
    'What is the weather?',
    'Switch the porch light on',
  ]);

  // A reload opens the conversation the address names.
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  expect(openId(page)).toBe(weather);
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveText(['It is sunny.']);
  // Back and Forward move between the conversations opened here.
  await page.goBack();
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText([
    'Switch the porch light on\nplease',
  ]);
  expect(openId(page)).toBe(porch);
  await page.goForward();
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText(['What is the weather?']);

  // Rename from the list: Enter saves, the focus comes back to Rename.
  await row(page, porch!).getByTestId('conversation-rename').click();
  await row(page, porch!).getByTestId('conversation-rename-input').fill('Porch');
  await row(page, porch!).getByTestId('conversation-rename-input').press('Enter');
  await expect(row(page, porch!).getByTestId('conversation-item')).toContainText('Porch');
  await expect(row(page, porch!).getByTestId('conversation-rename')).toBeFocused();
  expect((await stored(host)).find((entry) => entry.id === porch)?.title).toBe('Porch');
  // Escape cancels a rename.
  await row(page, porch!).getByTestId('conversation-rename').click();
  await row(page, porch!).getByTestId('conversation-rename-input').fill('Not this');
  await row(page, porch!).getByTestId('conversation-rename-input').press('Escape');
  expect((await stored(host)).find((entry) => entry.id === porch)?.title).toBe('Porch');

  // Search finds words said in a conversation, not only titles.
  await page.getByTestId('conversation-search').fill('sunny');
  await expect(page.getByTestId('conversation-row')).toHaveCount(1);
  await expect(row(page, weather!)).toHaveCount(1);
  await expect(page.getByTestId('conversation-search-status')).toHaveText('1 conversation mentions “sunny”.');
  await page.getByTestId('conversation-search').fill('nothing like this');
  await expect(page.getByTestId('conversation-row')).toHaveCount(0);
  await page.getByTestId('conversation-search').fill('');
  await expect(page.getByTestId('conversation-row')).toHaveCount(2);

  // Delete asks first (Keep has the focus), then removes it everywhere; the open one closes.
  await row(page, weather!).getByTestId('conversation-delete').click();
  await expect(page.getByTestId('conversation-delete-question').getByRole('button', { name: 'Keep' })).toBeFocused();
  await page.getByTestId('conversation-delete-confirm').click();
  await expect(page.getByTestId('conversation-row')).toHaveCount(1);
  expect((await stored(host)).map((entry) => entry.id)).toEqual([porch]);
  await expect.poll(() => openId(page)).toBeNull();
  await page.reload();
  await expect(page.getByTestId('conversation-row')).toHaveCount(1);
  await expect(page.getByTestId('turn')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('an address naming a conversation that is gone opens none', async ({ page, harness }) => {
  const folder = await harness.folder([{ text: 'ok' }]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await page.goto(`${host.origin}?conversation=no-such-conversation`);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await expect(page.getByTestId('chat-title')).toHaveText('New conversation');
  await expect.poll(() => openId(page)).toBeNull();
  expect(problems).toEqual([]);
});

test('the address is written after the Send that begins a conversation, not inside it', async ({ page, harness }) => {
  // Each pushState and replaceState, and the event being handled when it ran (none once that ended).
  await page.addInitScript(() => {
    const writes: { kind: string; during: string | null; url: string }[] = [];
    (window as unknown as { __addressWrites: typeof writes }).__addressWrites = writes;
    for (const kind of ['pushState', 'replaceState'] as const) {
      const own = history[kind].bind(history);
      history[kind] = (...args: Parameters<History['pushState']>) => {
        writes.push({ kind, during: window.event?.type ?? null, url: String(args[2]) });
        own(...args);
      };
    }
  });
  const folder = await harness.folder([{ text: 'The porch light is on.' }]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await send(page, 'Switch the porch light on');
  await expect.poll(() => openId(page)).toMatch(/^[0-9a-f-]{36}$/);
  const writes = await page.evaluate(
    () =>
      (window as unknown as { __addressWrites: { kind: string; during: string | null; url: string }[] })
        .__addressWrites,
  );
  // The page's own start (taking the token out of the address) writes too; these name the conversation.
  expect(
    writes.filter((write) => write.url.includes('conversation=')).map(({ kind, during }) => ({ kind, during })),
  ).toEqual([{ kind: 'replaceState', during: null }]);
  expect(problems).toEqual([]);
});
