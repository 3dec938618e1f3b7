import type { HostAgentEvent, HostNotice } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppStore } from './create-app-store.ts';
import { mergeJournal } from './merge-journal.ts';
import { announcementOf } from './announcement-of.ts';

/** How many turns a conversation's journal is read by, newest first (older pages as the person scrolls up). */
export const JOURNAL_PAGE_TURNS = 40;

/**
 * How long live events gather before they are folded, from the first of a group (ms). The calls of a
 * batch end in bursts, one call per device, spread over up to about 30 ms: folded a frame at a time,
 * a burst drew two or three frames, each costing the window's main thread about as much as one that
 * draws the whole burst (`npm run bench -- --only ui`, `mainThreadCpuMs`). A change shows at most
 * about 47 ms after it arrived (this plus a frame): under the 50 ms from event to paint that reads as at once.
 */
export const GATHER_MS = 30;

/** Runs `apply` once, before the first paint after `GATHER_MS` (requestAnimationFrame where there is one). */
export function afterGathering(apply: () => void): void {
  setTimeout(() => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(apply);
    else apply();
  }, GATHER_MS);
}

/**
 * The one place host events enter the store. Live events are gathered for `GATHER_MS` and folded
 * before the next paint, as one change (however many arrived); opening a conversation (or
 * reconnecting) folds its stored journal instead — its newest page of turns, older pages as the
 * person asks — with live events that arrive meanwhile held back and merged without duplicates.
 * Devices, plugins and settings are read at start and on reconnect, devices again after every turn.
 * Returns the function that stops it.
 */
export function startEventBridge(options: {
  api: ApiClient;
  store: AppStore;
  /** When live events are folded (default: `afterGathering`). */
  schedule?: (apply: () => void) => void;
}): () => void {
  const { api, store } = options;
  const schedule = options.schedule ?? afterGathering;
  const held = new Map<string, HostAgentEvent[]>();
  const requested = new Set<string>();
  const pending: HostAgentEvent[] = [];
  let scheduled = false;
  let stopped = false;
  let wasOpen = false;

  /** Folds what arrived since the group's first event, as one change. */
  function applyPending(): void {
    scheduled = false;
    if (stopped || pending.length === 0) return;
    store.getState().applyEvents(pending.splice(0));
  }

  async function loadJournal(conversationId: string): Promise<void> {
    const state = store.getState();
    if (held.has(conversationId)) return;
    // Live events not yet folded go first: the journal replaces what they built, and covers them.
    applyPending();
    held.set(conversationId, []);
    state.setJournalStatus(conversationId, 'loading');
    try {
      const { events, page } = await api.call('conversations/events', {
        conversationId,
        page: { turns: JOURNAL_PAGE_TURNS },
      });
      if (stopped) return;
      const buffered = held.get(conversationId) ?? [];
      store.getState().replaceConversationEvents(conversationId, mergeJournal({ journal: events, buffered }), {
        batchesBefore: page?.batchesBefore ?? 0,
        ...(page?.before !== undefined ? { before: page.before } : {}),
      });
    } catch (error) {
      if (stopped) return;
      // What was held back is still news: fold it so the live part of the view stays right.
      store.getState().applyEvents(held.get(conversationId) ?? []);
      store.getState().setJournalStatus(conversationId, 'failed');
      store.getState().showNotice(`Could not load the conversation: ${messageOf(error)}`);
    } finally {
      held.delete(conversationId);
    }
  }

  /** Devices, plugins and settings: what the side area shows besides the channels. */
  async function refreshSideData(): Promise<void> {
    const state = store.getState();
    await Promise.all([
      state.refreshDevices(),
      state.refreshPlugins(),
      state.refreshSettings(),
      state.refreshSecrets(),
      state.refreshStandingApprovals(),
      state.refreshElicitations(),
    ]);
  }

  function receive(event: HostAgentEvent): void {
    const waiting = held.get(event.conversationId);
    if (waiting) waiting.push(event);
    else {
      pending.push(event);
      if (!scheduled) {
        scheduled = true;
        schedule(applyPending);
      }
    }
    // Live news is spoken as it happens (a journal being loaded is not news).
    const spoken = announcementOf(event, store.getState().openConversationId);
    if (spoken) store.getState().announce(spoken.text, spoken.urgent);
    const known = store.getState().conversations.some((entry) => entry.id === event.conversationId);
    // A new conversation (sent from another front end) or a finished turn changes the list's titles and order.
    if ((!known && !requested.has(event.conversationId)) || event.type === 'turn/end') {
      requested.add(event.conversationId);
      void store.getState().refreshConversations();
    }
    // A turn may have found a device gone or back: the devices list is re-read after every turn.
    if (event.type === 'turn/end') {
      void store.getState().refreshDevices();
    }
  }

  /**
   * Says at once when the model cannot be used or its server does not answer, rather than at the
   * first message. A model that is no AI needs no server.
   */
  async function checkModel(info: { model: { ok?: boolean; scripted: boolean; notice?: string } }): Promise<void> {
    if (info.model.ok === false) {
      store.getState().showNotice(`${info.model.notice ?? 'The model settings cannot be used.'} Fix them in Settings.`);
      return;
    }
    if (info.model.scripted) return;
    try {
      const tested = await api.call('models/test', {});
      if (!stopped && !tested.ok)
        store
          .getState()
          .showNotice(`The model server does not answer: ${tested.message} Check Settings → Test connection.`);
    } catch (error) {
      // The host itself failed to answer: the connection line says so already.
      console.warn('Could not test the model server:', error);
    }
  }

  async function start(): Promise<void> {
    try {
      const info = await api.call('app/info', {});
      if (!stopped) store.getState().setAppInfo(info);
      void checkModel(info);
    } catch (error) {
      if (!stopped) store.getState().showNotice(`Could not reach the host: ${messageOf(error)}`);
    }
    void refreshSideData();
    const remembered = store.getState().openConversationId;
    await store.getState().refreshConversations();
    if (stopped) return;
    const state = store.getState();
    // Only the conversation remembered from last time may be gone; one begun meanwhile is new.
    if (state.openConversationId !== remembered || !remembered) return;
    if (!state.conversations.some((entry) => entry.id === remembered)) state.openConversation(null);
    else void loadJournal(remembered);
  }

  const unsubscribeEvents = api.onEvent(receive);
  // Changes outside a turn: a device plugged in or pulled, a plugin toggled in another window.
  const unsubscribeNotices = api.onNotice((notice: HostNotice) => {
    const state = store.getState();
    if (notice.type === 'devices/changed') void state.refreshDevices();
    else if (notice.type === 'plugins/changed') void state.refreshPlugins();
    else if (notice.type === 'approvals/changed') {
      // Standing approvals are listed with their device and, for other tools, on their own.
      void state.refreshDevices();
      void state.refreshStandingApprovals();
    } else if (notice.type === 'elicitation/request' || notice.type === 'elicitation/end') {
      state.receiveElicitationNotice(notice);
    } else {
      state.receiveDeviceEvent(notice);
      state.showNotice(
        `${notice.deviceId}: ${notice.event}${Object.keys(notice.data).length > 0 ? ` ${JSON.stringify(notice.data)}` : ''}`,
      );
    }
  });
  const unsubscribeConnection = api.onConnection((connection) => {
    store.getState().setConnection(connection);
    // Events sent while the link was down are only in the journal: reload what is open, and the
    // others when they are opened again.
    if (connection.status === 'open' && wasOpen === false && store.getState().appInfo) {
      // What failed while the host was away is read again now; a failure of that shows anew.
      store.getState().showNotice(null);
      store.getState().forgetJournals();
      const open = store.getState().openConversationId;
      if (open) void loadJournal(open);
      void store.getState().refreshConversations();
      void refreshSideData();
    }
    wasOpen = connection.status === 'open';
  });
  // Opening a conversation loads its journal once; after that live events keep it current.
  const unsubscribeStore = store.subscribe((state, previous) => {
    const open = state.openConversationId;
    const status = open ? state.journalStatus[open] : undefined;
    if (open && open !== previous.openConversationId && status !== 'loading' && status !== 'loaded')
      void loadJournal(open);
  });
  void start();

  return () => {
    stopped = true;
    unsubscribeEvents();
    unsubscribeNotices();
    unsubscribeConnection();
    unsubscribeStore();
  };
}
