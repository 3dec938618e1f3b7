import { afterEach, describe, expect, it } from 'vitest';
import type { HostAgentEvent } from '../../../host/contract/api-contract.ts';
import { countOpenApprovals } from '../../../renderer/state/approvals-reducer.ts';
import type { AppStore } from '../../../renderer/state/create-app-store.ts';
import {
  event,
  RELAY_QUESTION,
  relayApprovalTurn,
  relayQuestionAsked,
  withoutApprovalIds,
} from '../helpers/agent-events.ts';
import { startLoopbackHost, type LoopbackHost, type RouteAnswer } from '../helpers/loopback-host.ts';
import { createLoopbackStore, waitForState } from '../helpers/loopback-store.ts';

const appInfo = {
  version: '0.1.0',
  transport: 'web',
  model: { label: 'Demo model — no AI', scripted: true },
  dataDir: '/tmp/x',
};
const disposers: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

/** A host that knows conversation c1 with `journal`, and a renderer (client, store, bridge) on it. */
async function start(journal: HostAgentEvent[] = []): Promise<{ host: LoopbackHost; store: AppStore }> {
  const host = await startLoopbackHost();
  disposers.push(() => host.close());
  host.routes['app/info'] = () => ({ result: appInfo });
  host.routes['conversations/list'] = () => ({
    result: { conversations: [{ id: 'c1', title: 'Relay', createdAt: 1, updatedAt: 2 }] },
  });
  host.routes['conversations/events'] = () => ({ result: { events: journal } });
  const renderer = createLoopbackStore({ host, bridge: true });
  disposers.push(() => renderer.dispose());
  await waitForState(renderer.store, (state) => state.connection.status === 'open' && state.appInfo !== null);
  await host.connections(1);
  return { host, store: renderer.store };
}

/** Sends the question live over the socket and waits until the store shows it open. */
async function askLive(host: LoopbackHost, store: AppStore): Promise<void> {
  for (const entry of relayQuestionAsked()) host.broadcast(entry);
  await waitForState(store, (state) => state.approvals[RELAY_QUESTION]?.status === 'waiting');
}

/** A route that answers only when the test says so, and tells when it was called. */
function heldRoute(): { route: () => Promise<RouteAnswer>; called: Promise<void>; answer(value: RouteAnswer): void } {
  let answer: (value: RouteAnswer) => void = () => undefined;
  let called: () => void = () => undefined;
  const calledPromise = new Promise<void>((resolve) => (called = resolve));
  return {
    route: () =>
      new Promise<RouteAnswer>((resolve) => {
        answer = resolve;
        called();
      }),
    called: calledPromise,
    answer: (value) => answer(value),
  };
}

describe('answering a question', () => {
  it('sends Allow as approval/answer, holds the buttons while it travels, and closes when approval/end arrives', async () => {
    const { host, store } = await start();
    await askLive(host, store);
    expect(countOpenApprovals(store.getState())).toBe(1);
    const held = heldRoute();
    host.routes['approval/answer'] = held.route;
    const answering = store.getState().answerApproval(RELAY_QUESTION, true);
    await held.called;
    expect(store.getState().approvalAnswers[RELAY_QUESTION]).toEqual({ phase: 'sending', approved: true });
    // A second press while the first is on its way sends nothing.
    await store.getState().answerApproval(RELAY_QUESTION, false);
    held.answer({ result: { accepted: true } });
    await answering;
    expect(host.requests.get('approval/answer')).toEqual([{ approvalId: RELAY_QUESTION, approved: true }]);
    expect(store.getState().approvalAnswers[RELAY_QUESTION]).toEqual({ phase: 'sent', approved: true });
    // Taken, but the question is open until the host says how it ended.
    expect(store.getState().approvals[RELAY_QUESTION]?.status).toBe('waiting');
    host.broadcast(relayApprovalTurn({ approved: true, why: 'answered' })[6]!);
    const state = await waitForState(store, (current) => current.approvals[RELAY_QUESTION]?.status !== 'waiting');
    expect(state.approvals[RELAY_QUESTION]?.status).toBe('allowed');
    expect(countOpenApprovals(state)).toBe(0);
  });

  it('sends Deny as approved: false', async () => {
    const { host, store } = await start();
    await askLive(host, store);
    host.routes['approval/answer'] = () => ({ result: { accepted: true } });
    await store.getState().answerApproval(RELAY_QUESTION, false);
    expect(host.requests.get('approval/answer')).toEqual([{ approvalId: RELAY_QUESTION, approved: false }]);
  });

  it('says "already answered elsewhere" when the host had no such question open, and sends nothing more', async () => {
    const { host, store } = await start();
    await askLive(host, store);
    host.routes['approval/answer'] = () => ({ result: { accepted: false } });
    await store.getState().answerApproval(RELAY_QUESTION, true);
    expect(store.getState().approvalAnswers[RELAY_QUESTION]).toEqual({ phase: 'refused', approved: true });
    await store.getState().answerApproval(RELAY_QUESTION, false);
    expect(host.requests.get('approval/answer')).toHaveLength(1);
  });

  it('shows the host’s reason when it had no such question open', async () => {
    const { host, store } = await start();
    await askLive(host, store);
    const message =
      'No such question is waiting for an answer: it may have been answered elsewhere, timed out, or its turn was stopped.';
    host.routes['approval/answer'] = () => ({ result: { accepted: false, message } });
    await store.getState().answerApproval(RELAY_QUESTION, true, true);
    expect(store.getState().approvalAnswers[RELAY_QUESTION]).toEqual({
      phase: 'refused',
      approved: true,
      remember: true,
      message,
    });
  });

  it('answers each of two conversations’ questions by its approvalId, though their calls share an id', async () => {
    const { host, store } = await start();
    // Gemini and Ollama number calls per step: both conversations wait on call gemini-0-0.
    const question = (conversationId: string, approvalId: string) =>
      event({
        type: 'approval/request',
        at: 10,
        conversationId,
        turnId: `turn-${conversationId}`,
        batchId: `batch-${conversationId}`,
        callId: 'gemini-0-0',
        approvalId,
        index: 0,
        name: 'relay__set',
        args: { device_id: conversationId === 'A' ? 'relay-1' : 'relay-2', channel: 1, on: true },
      });
    host.broadcast(question('A', 'qa'));
    host.broadcast(question('B', 'qb'));
    await waitForState(store, (state) => countOpenApprovals(state) === 2);
    host.routes['approval/answer'] = () => ({ result: { accepted: true } });
    await store.getState().answerApproval('qb', true, true);
    await store.getState().answerApproval('qa', false);
    expect(host.requests.get('approval/answer')).toEqual([
      { approvalId: 'qb', approved: true, remember: true },
      { approvalId: 'qa', approved: false },
    ]);
    expect([store.getState().approvalAnswers.qa?.approved, store.getState().approvalAnswers.qb?.approved]).toEqual([
      false,
      true,
    ]);
  });

  it('sends nothing for an open question journaled before questions had an approvalId, and says why', async () => {
    const { host, store } = await start(withoutApprovalIds(relayQuestionAsked()));
    store.getState().openConversation('c1');
    const state = await waitForState(store, (current) => current.journalStatus.c1 === 'loaded');
    const [key] = Object.keys(state.approvals);
    host.routes['approval/answer'] = () => ({ result: { accepted: true } });
    await store.getState().answerApproval(key!, true);
    expect(host.requests.get('approval/answer')).toBeUndefined();
    expect(store.getState().approvalAnswers[key!]).toEqual({
      phase: 'refused',
      approved: true,
      message: 'This question was recorded before questions had their own id: it cannot be answered.',
    });
  });

  it('keeps the question answerable when the answer did not reach the host', async () => {
    const { host, store } = await start();
    await askLive(host, store);
    host.routes['approval/answer'] = () => ({ status: 500, message: 'store is locked' });
    await store.getState().answerApproval(RELAY_QUESTION, true);
    expect(store.getState().approvalAnswers[RELAY_QUESTION]).toEqual({
      phase: 'failed',
      approved: true,
      message: 'Your answer did not reach the host: store is locked',
    });
    host.routes['approval/answer'] = () => ({ result: { accepted: true } });
    await store.getState().answerApproval(RELAY_QUESTION, true);
    expect(host.requests.get('approval/answer')).toHaveLength(2);
    expect(store.getState().approvalAnswers[RELAY_QUESTION]?.phase).toBe('sent');
  });

  it('sends nothing for a question that is not open', async () => {
    const { host, store } = await start();
    host.routes['approval/answer'] = () => ({ result: { accepted: true } });
    await store.getState().answerApproval('nobody-asked', true);
    expect(host.requests.get('approval/answer')).toBeUndefined();
  });
});

describe('questions in a reloaded conversation', () => {
  function remember(store: AppStore): void {
    store.getState().openConversation('c1');
  }

  it('shows no open question when the journal holds its end', async () => {
    const { store } = await start(relayApprovalTurn({ approved: true, why: 'answered' }));
    remember(store);
    const state = await waitForState(store, (current) => current.journalStatus.c1 === 'loaded');
    expect(state.approvals[RELAY_QUESTION]?.status).toBe('allowed');
    expect(countOpenApprovals(state)).toBe(0);
    expect(state.batches.rb1?.calls[0]).toMatchObject({ status: 'done', ok: true });
  });

  it('shows a question the host still waits on as open, and answerable', async () => {
    const { host, store } = await start(relayQuestionAsked());
    remember(store);
    const state = await waitForState(store, (current) => current.journalStatus.c1 === 'loaded');
    expect(state.approvals[RELAY_QUESTION]?.status).toBe('waiting');
    host.routes['approval/answer'] = () => ({ result: { accepted: true } });
    await store.getState().answerApproval(RELAY_QUESTION, false);
    expect(host.requests.get('approval/answer')).toEqual([{ approvalId: RELAY_QUESTION, approved: false }]);
  });
});

describe('showApproval', () => {
  it('opens the question’s conversation and asks for its card to be shown, once', async () => {
    const { host, store } = await start();
    await askLive(host, store);
    expect(store.getState().openConversationId).toBeNull();
    store.getState().showApproval(RELAY_QUESTION);
    expect([store.getState().openConversationId, store.getState().approvalFocus]).toEqual(['c1', RELAY_QUESTION]);
    store.getState().clearApprovalFocus('another-question');
    expect(store.getState().approvalFocus).toBe(RELAY_QUESTION);
    store.getState().clearApprovalFocus(RELAY_QUESTION);
    expect(store.getState().approvalFocus).toBeNull();
  });
});
