import './configure-zod.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/create-api-client.ts';
import { createAppStore } from './state/create-app-store.ts';
import { startEventBridge } from './state/event-bridge.ts';
import { startConversationUrl } from './state/conversation-url.ts';
import { browserStorageAreas } from './state/persisted-keys.ts';
import { whenIdle } from './state/when-idle.ts';
import { App } from './views/app.tsx';
import { warmUpBatchDrawing } from './views/batch-warmup.tsx';
import { AppStoreContext } from './views/use-app-store.ts';
import './styles.css';

// The page owns the client, the store and the bridge for its whole life; unload disposes them.
const storage = browserStorageAreas();
const api = createApiClient(storage);
const store = createAppStore({ api, storage });
// Before the bridge starts: the address names the conversation to open, over the remembered one.
const stopUrl = startConversationUrl({ store, window });
const stopBridge = startEventBridge({ api, store });
window.addEventListener('pagehide', () => {
  stopBridge();
  stopUrl();
  api.dispose();
});

const container = document.getElementById('root');
if (!container) throw new Error('renderer/index.html has no #root element.');
createRoot(container).render(
  <StrictMode>
    <AppStoreContext.Provider value={store}>
      <App />
    </AppStoreContext.Provider>
  </StrictMode>,
);

// The first batch's code runs once at the first idle moment, not in the frame that draws it (batch-warmup.tsx).
const warmUp = (): void => {
  try {
    warmUpBatchDrawing(api);
  } catch (error) {
    console.warn('The batch warm-up failed: the first batch will take longer to draw.', error);
  }
};
whenIdle(window, warmUp);
