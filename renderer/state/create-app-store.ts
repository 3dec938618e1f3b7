import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client.ts';
import { createAppSlice, type AppSlice } from './app-slice.ts';
import { createApprovalAnswersSlice, type ApprovalAnswersSlice } from './approval-answers-slice.ts';
import { createChatSlice, type ChatSlice } from './chat-slice.ts';
import { createConversationsSlice, type ConversationsSlice } from './conversations-slice.ts';
import { createDevicesSlice, type DevicesSlice } from './devices-slice.ts';
import { createEventsSlice, type EventsSlice } from './events-slice.ts';
import { readPersisted, writePersisted, type StorageAreas } from './persisted-keys.ts';
import { createPluginsSlice, type PluginsSlice } from './plugins-slice.ts';
import { createSettingsSlice, type SettingsSlice } from './settings-slice.ts';
import { createSecretsSlice, type SecretsSlice } from './secrets-slice.ts';
import { createAddDeviceSlice, type AddDeviceSlice } from './add-device-slice.ts';
import { createDeviceChangesSlice, type DeviceChangesSlice } from './device-changes-slice.ts';
import { createStandingApprovalsSlice, type StandingApprovalsSlice } from './standing-approvals-slice.ts';
import { createApprovalPinSlice, type ApprovalPinSlice } from './approval-pin-slice.ts';
import { createElicitationSlice, type ElicitationSlice } from './elicitation-slice.ts';

/** The whole renderer state: one store made of typed slices, actions beside their state. */
export type AppState = AppSlice &
  ConversationsSlice &
  EventsSlice &
  ChatSlice &
  DevicesSlice &
  PluginsSlice &
  SettingsSlice &
  SecretsSlice &
  ApprovalAnswersSlice &
  AddDeviceSlice &
  DeviceChangesSlice &
  StandingApprovalsSlice &
  ApprovalPinSlice &
  ElicitationSlice;
export type AppStore = StoreApi<AppState>;

/** The store, wired to the API its actions call and to the persisted keys it restores and keeps. */
export function createAppStore(options: { api: ApiClient; storage: StorageAreas }): AppStore {
  const store = createStore<AppState>()((...parts) => ({
    ...createAppSlice(options.api)(...parts),
    ...createConversationsSlice(options.api)(...parts),
    ...createEventsSlice(options.api)(...parts),
    ...createChatSlice(options.api)(...parts),
    ...createDevicesSlice(options.api)(...parts),
    ...createPluginsSlice(options.api)(...parts),
    ...createSettingsSlice(options.api)(...parts),
    ...createSecretsSlice(options.api)(...parts),
    ...createApprovalAnswersSlice(options.api)(...parts),
    ...createAddDeviceSlice(options.api)(...parts),
    ...createDeviceChangesSlice(options.api)(...parts),
    ...createStandingApprovalsSlice(options.api)(...parts),
    ...createApprovalPinSlice(options.api)(...parts),
    ...createElicitationSlice(options.api)(...parts),
  }));
  store.setState({ openConversationId: readPersisted(options.storage, 'lastConversationId') ?? null });
  // The store owns this subscription for its whole life; it is the page's lifetime.
  store.subscribe((state, previous) => {
    if (state.openConversationId !== previous.openConversationId) {
      writePersisted(options.storage, 'lastConversationId', state.openConversationId ?? undefined);
    }
  });
  return store;
}
