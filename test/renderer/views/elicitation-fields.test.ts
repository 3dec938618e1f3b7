// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { ElicitationRequestNotice } from '../../../host/contract/api-contract.ts';
import { ElicitationQuestions } from '../../../renderer/views/elicitation-form.tsx';
import { AppStoreContext } from '../../../renderer/views/use-app-store.ts';
import { startLoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore, waitForState } from '../helpers/loopback-store.ts';

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = false;

const disposers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

const QUESTION: ElicitationRequestNotice = {
  type: 'elicitation/request',
  id: 'q1',
  plugin: 'mcp-shop',
  message: 'When shall it come?',
  requestedSchema: {
    type: 'object',
    properties: {
      day: { type: 'string', format: 'date', title: 'Day' },
      at: { type: 'string', format: 'date-time', title: 'Exact time' },
      mail: { type: 'string', format: 'email', title: 'Mail' },
      site: { type: 'string', format: 'uri', title: 'Site' },
      note: { type: 'string', title: 'Note' },
    },
    required: ['day'],
  },
  defaults: { day: '2026-12-24' },
};

/** Types into an input as a person would: React reads the value the input event carries. */
function typeInto(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('a plugin’s question form', () => {
  it('asks for a date with a date input, sends its YYYY-MM-DD value, and shows the other formats as their inputs', async () => {
    const host = await startLoopbackHost();
    disposers.push(() => host.close());
    host.routes['elicitation/answer'] = () => ({ result: { accepted: true } });
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${host.baseUrl}/`);
    const renderer = createLoopbackStore({ host });
    disposers.push(() => renderer.dispose());
    renderer.store.setState({ elicitations: [QUESTION] });
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    disposers.push(() => {
      root.unmount();
      container.remove();
    });
    flushSync(() =>
      root.render(
        createElement(AppStoreContext.Provider, { value: renderer.store }, createElement(ElicitationQuestions)),
      ),
    );
    const input = (key: string) => container.querySelector<HTMLInputElement>(`#elicitation-q1-${key}`)!;
    expect(input('day').type).toBe('date');
    expect(input('day').value).toBe('2026-12-24');
    expect(input('at').type).toBe('text');
    expect(input('at').placeholder).toMatch(/^e\.g\. \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(input('mail').type).toBe('email');
    expect(input('site').type).toBe('url');
    expect(input('note').type).toBe('text');

    flushSync(() => typeInto(input('day'), '2026-12-25'));
    container.querySelector<HTMLButtonElement>('.elicitation-send')!.click();
    // The store changes once the host has answered (the form's problems are cleared).
    await waitForState(renderer.store, () => (host.requests.get('elicitation/answer') ?? []).length > 0);
    expect(host.requests.get('elicitation/answer')).toEqual([
      { id: 'q1', action: 'accept', content: { day: '2026-12-25' } },
    ]);
  });
});
