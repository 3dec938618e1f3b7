import type { Page } from '@playwright/test';
import { callHost } from './helpers/call-host.ts';
import { expect, openPage, send, test } from './helpers/harness.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../helpers/loopback-model-server.ts';

/** A real OpenAI-compatible server on loopback: a model list, and one streamed reply to every chat request. */
async function modelServer(harness: { onDispose(cleanup: () => Promise<void>): void }): Promise<LoopbackModelServer> {
  const server = await startLoopbackModelServer();
  harness.onDispose(() => server.close());
  server.reply((request) =>
    request.method === 'GET'
      ? {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ object: 'list', data: [{ id: 'small-model' }, { id: 'big-model' }] }),
        }
      : {
          headers: { 'content-type': 'text/event-stream' },
          body: 'data: {"choices":[{"index":0,"delta":{"content":"Hello from the model server."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
        },
  );
  return server;
}

function field(page: Page, key: string) {
  return page.locator(`[data-testid="setting-input"][data-setting="${key}"]`);
}

test('a provider and model chosen in Settings apply to the next turn, without a restart', async ({ page, harness }) => {
  const server = await modelServer(harness);
  const folder = await harness.folder();
  // No model flags: the stored settings choose (none yet: the demo model).
  const host = await harness.host({ dataDir: folder.dataDir, provider: 'none' });
  const problems = await openPage(page, host);
  await expect(page.getByTestId('model-label')).toHaveText('Demo model — no AI');

  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await field(page, 'provider').selectOption('openai');
  await field(page, 'baseUrl').fill(`${server.url}/v1`);
  // The picker lists what the server offers, for the fields as typed (not saved yet).
  await page.getByTestId('load-models').click();
  await expect(page.getByTestId('model-picker').locator('option')).toHaveText([
    'Choose a model…',
    'small-model',
    'big-model',
  ]);
  await page.getByTestId('model-picker').selectOption('big-model');
  await expect(field(page, 'model')).toHaveValue('big-model');
  await page.getByTestId('test-connection').click();
  await expect(page.getByTestId('connection-test')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('connection-test')).toHaveText(
    `Connected to ${server.url}/v1: it offers 2 models, big-model among them.`,
  );
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-status')).toHaveText(
    'Saved: Provider, Model, Base URL. Applies from the next turn.',
  );
  await expect(page.getByTestId('model-label')).toHaveText('openai:big-model');

  await send(page, 'hello');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]').last()).toHaveText(
    'Hello from the model server.',
  );
  const chat = server.requests.filter((request) => request.method === 'POST');
  expect(chat).toHaveLength(1);
  expect(JSON.parse(chat[0]!.body)).toMatchObject({ model: 'big-model' });

  // And back to the demo model, again without a restart.
  await field(page, 'provider').selectOption('demo');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('model-label')).toHaveText('Demo model — no AI');
  await send(page, 'what is the temperature?');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]').last()).toHaveText(
    'thermometer-1 reads 21.5 °C, 45 % humidity',
  );
  expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  expect(problems).toEqual([]);
});

test('Test connection says plainly what is wrong, and a refused value is explained for a person', async ({
  page,
  harness,
}) => {
  const server = await modelServer(harness);
  const folder = await harness.folder();
  const host = await harness.host({ dataDir: folder.dataDir, provider: 'none' });
  const problems = await openPage(page, host);
  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await field(page, 'provider').selectOption('openai');
  await field(page, 'baseUrl').fill(`${server.url}/v1`);
  await field(page, 'model').fill('gpt-5');
  await page.getByTestId('test-connection').click();
  await expect(page.getByTestId('connection-test')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('connection-test')).toHaveText(
    `Connected to ${server.url}/v1: it offers 2 models, but none named gpt-5. It offers: small-model, big-model.`,
  );
  await field(page, 'maxSteps').fill('0');
  await field(page, 'baseUrl').fill('127.0.0.1:1234');
  await page.getByTestId('settings-save').click();
  // Beside each field: that it was not saved, and why; under the form only which fields to look at.
  await expect(page.locator('[data-testid="setting-error"][data-setting="maxSteps"]')).toHaveText(
    'Not saved. The step limit is a whole number from 1 to 100.',
  );
  await expect(page.locator('[data-testid="setting-error"][data-setting="baseUrl"]')).toHaveText(
    'Not saved. A web address starting with http:// or https://, e.g. http://127.0.0.1:11434/v1.',
  );
  // Provider and model were valid: saved; the two refused fields are only named here.
  await expect(page.getByTestId('settings-status')).toHaveText(
    'Saved: Provider, Model. Base URL, Max steps: see under each field. Applies from the next turn.',
  );
  expect(problems.filter((problem) => !problem.includes('status of 400'))).toEqual([]);
});

test('a model server that does not answer is said once when the page opens, not first at the first message', async ({
  page,
  harness,
}) => {
  const gone = await startLoopbackModelServer();
  const address = gone.url;
  await gone.close();
  const folder = await harness.folder();
  const host = await harness.host({
    dataDir: folder.dataDir,
    provider: 'none',
    extraArgs: ['--provider', 'openai', '--model', 'm', '--base-url', `${address}/v1`],
  });
  await openPage(page, host);
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText(`The model server does not answer: No model server at ${address}/v1`);
  await expect(notice).toContainText('Check Settings → Test connection.');
  // A turn then fails with the reason once, not twice.
  await send(page, 'hello');
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'error');
  const said = (await page.getByTestId('turn').innerText()).split(`${address}/v1`).length - 1;
  expect(said).toBe(1);
  expect(await callHost(host, 'settings/get')).toMatchObject({ fixed: ['provider', 'model', 'baseUrl'] });
});
