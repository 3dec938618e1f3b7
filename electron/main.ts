import { app, BrowserWindow, ipcMain, session, shell, type IpcMainInvokeEvent } from 'electron';
import path from 'node:path';
import { bootHost } from '../host/app/boot-host.ts';
import { dispatchApiCall } from '../host/app/api-handlers.ts';
import type { Host } from '../host/app/create-host.ts';
import { readCommonFlags } from '../host/cli/common-flags.ts';
import { ELECTRON_CSP } from './content-security-policy.ts';
import { IPC_CALL, IPC_EVENT } from './ipc-channels.ts';

declare const MAIN_WINDOW_VITE_DEV_SERVER_URL: string | undefined;
declare const MAIN_WINDOW_VITE_NAME: string;

let host: Host | undefined;
let window: BrowserWindow | undefined;
const lifetime = new AbortController();

function isOurFrame(event: IpcMainInvokeEvent): boolean {
  const url = event.senderFrame?.url ?? '';
  if (typeof MAIN_WINDOW_VITE_DEV_SERVER_URL === 'string' && MAIN_WINDOW_VITE_DEV_SERVER_URL) return url.startsWith(MAIN_WINDOW_VITE_DEV_SERVER_URL);
  return url.startsWith('file://');
}

async function start(): Promise<void> {
  // The desktop app runs on the embedded defaults: the simulated devices and the demo model,
  // unless a provider is configured through the environment (see README, Models).
  const flags = readCommonFlags({
    sim: process.env.HOME_AGENT_SIM !== '0',
    provider: process.env.HOME_AGENT_PROVIDER,
    model: process.env.HOME_AGENT_MODEL,
    'base-url': process.env.HOME_AGENT_BASE_URL,
    'api-key-env': process.env.HOME_AGENT_API_KEY_ENV,
    'data-dir': process.env.HOME_AGENT_DATA_DIR ?? app.getPath('userData'),
  });
  host = await bootHost({ flags, transport: 'electron', log: (line) => console.error(`home-agent: ${line}`), signal: lifetime.signal });

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [ELECTRON_CSP] } });
  });
  ipcMain.handle(IPC_CALL, async (event, request: unknown) => {
    // The renderer is untrusted: drop calls from unknown frames, validate every payload in main.
    if (!isOurFrame(event)) throw new Error('IPC from an unknown frame was refused');
    const { method, input } = (request ?? {}) as { method?: unknown; input?: unknown };
    if (typeof method !== 'string') throw new Error('IPC call without a method name');
    return dispatchApiCall(host!.handlers, method, input);
  });
  host.bus.subscribe((event) => window?.webContents.send(IPC_EVENT, event));

  window = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Home Agent',
    webPreferences: {
      preload: path.join(import.meta.dirname, 'preload.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.on('closed', () => (window = undefined));
  if (typeof MAIN_WINDOW_VITE_DEV_SERVER_URL === 'string' && MAIN_WINDOW_VITE_DEV_SERVER_URL) await window.loadURL(MAIN_WINDOW_VITE_DEV_SERVER_URL);
  else await window.loadFile(path.join(import.meta.dirname, `../renderer/${MAIN_WINDOW_VITE_NAME}/index.html`));
}

app.on('web-contents-created', (_event, contents) => {
  // No navigation away from the app and no new windows; links open in the system browser.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
});

app.whenReady().then(start, (error: unknown) => {
  console.error(`home-agent: ${(error as Error).message}`);
  app.exit(1);
});
app.on('window-all-closed', () => app.quit());
app.on('will-quit', (event) => {
  if (!host) return;
  event.preventDefault();
  lifetime.abort();
  const closing = host;
  host = undefined;
  void closing.dispose().finally(() => app.exit(0));
});
