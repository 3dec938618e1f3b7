// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { ModelServerTools } from '../../../renderer/views/model-server-tools.tsx';
import { AppStoreContext } from '../../../renderer/views/use-app-store.ts';
import { startLoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore, waitForState } from '../helpers/loopback-store.ts';

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = false;

const disposers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

/** Resolves once `element` holds text (React draws the store's change after it is made). */
function filled(element: Element): Promise<void> {
  return new Promise((resolve) => {
    if (element.textContent !== '') return resolve();
    const observer = new MutationObserver(() => {
      if (element.textContent === '') return;
      observer.disconnect();
      resolve();
    });
    observer.observe(element, { childList: true, characterData: true, subtree: true });
  });
}

describe('the Settings tab’s Forget learned windows', () => {
  it('is a button of that name that asks the host to forget every learned window and announces what it did', async () => {
    const host = await startLoopbackHost();
    disposers.push(() => host.close());
    const message = 'Forgot the learned window of qwen (1 tokens); the next turn finds each model’s window again.';
    host.routes['models/forget-windows'] = () => ({
      result: { forgotten: [{ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen', windowTokens: 1 }], message },
    });
    // The page comes from the host it calls, as in `serve` (happy-dom's fetch keeps the same-origin rule).
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${host.baseUrl}/`);
    const renderer = createLoopbackStore({ host });
    disposers.push(() => renderer.dispose());
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    disposers.push(() => {
      root.unmount();
      container.remove();
    });
    flushSync(() =>
      root.render(createElement(AppStoreContext.Provider, { value: renderer.store }, createElement(ModelServerTools))),
    );
    const button = [...container.querySelectorAll('button')].find(
      (candidate) => candidate.textContent === 'Forget learned windows',
    );
    expect(button, container.innerHTML).toBeDefined();
    button!.click();
    await waitForState(renderer.store, (state) => state.windowsForgetting?.phase === 'done');
    expect(renderer.store.getState().windowsForgetting).toEqual({ phase: 'done', ok: true, message });
    expect(host.requests.get('models/forget-windows')).toEqual([{}]);
    const status = container.querySelector('[data-testid="forget-learned-windows-status"]')!;
    await filled(status);
    expect(status.getAttribute('role')).toBe('status');
    expect(status.textContent).toBe(message);
  });
});
