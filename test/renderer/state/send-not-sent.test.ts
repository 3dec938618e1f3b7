import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore } from '../helpers/loopback-store.ts';

const disposers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

async function renderer(options: { down?: boolean } = {}) {
  const host = await startLoopbackHost();
  const opened = createLoopbackStore({ host });
  disposers.push(() => opened.dispose());
  if (options.down) await host.close();
  else disposers.push(() => host.close());
  return { host, store: opened.store };
}

describe('a message that was not sent', () => {
  it('says so while the host is down, what to do, and leaves the window where it was (no new conversation opened)', async () => {
    const { store } = await renderer({ down: true });
    expect(store.getState().openConversationId).toBeNull();
    expect(await store.getState().sendMessage('turn on the lamps')).toBe(false);
    expect(store.getState().sendFailure).toBe(
      'Not sent: Home Agent cannot be reached (it may have stopped or be restarting). Your message is still in the box: send it again once the window says Connected.',
    );
    expect(store.getState().openConversationId).toBeNull();
  });

  it('gives the host’s reason when it refused, and clears once a message is sent', async () => {
    const { host, store } = await renderer();
    host.routes['chat/send'] = () => ({ status: 409, message: 'A turn is already running in this conversation.' });
    store.getState().openConversation('c1');
    expect(await store.getState().sendMessage('again')).toBe(false);
    expect(store.getState().sendFailure).toBe(
      'Not sent: A turn is already running in this conversation. Your message is still in the box.',
    );
    expect(store.getState().openConversationId).toBe('c1');
    host.routes['chat/send'] = () => ({ result: { conversationId: 'c1', turnId: 't2' } });
    expect(await store.getState().sendMessage('again')).toBe(true);
    expect(store.getState().sendFailure).toBeNull();
  });
});
