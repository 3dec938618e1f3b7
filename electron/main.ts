import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import path from 'node:path';
import { startHost } from '../host/app/start-host.ts';
import type { Host } from '../host/app/create-host.ts';
import { readSettingEnvironment } from '../host/config/read-setting-values.ts';
import { electronCsp } from './content-security-policy.ts';
import { IPC_CALL, IPC_EVENT, IPC_NOTICE } from './ipc-channels.ts';
import { createIpcCallHandler, trustedUrlCheck } from './ipc-call-handler.ts';
import { guardNavigation } from './navigation-guard.ts';
import { secureWebPreferences } from './secure-web-preferences.ts';
import { safeStorageCipher } from './safe-storage-cipher.ts';
import { EncryptedFileSecretStore, SECRETS_FILE_NAME } from '../host/secrets/encrypted-file-secret-store.ts';
import { resolveDataDir } from '../host/config/data-dir.ts';
import { adoptDataFolder } from '../host/config/adopt-data-folder.ts';
import { claimHome } from '../host/link/claim-home.ts';
import { explainHeld, holdWindowHome } from '../host/link/hold-window-home.ts';
import { FRONT_END_DOORS } from '../host/front/link-doors.ts';
import { BUILTIN_PLUGIN_DATA_FILES } from '../host/plugins/builtin/builtin-plugin-run-options.ts';

declare const MAIN_WINDOW_VITE_DEV_SERVER_URL: string | undefined;
declare const MAIN_WINDOW_VITE_NAME: string;

let host: Host | undefined;
let window: BrowserWindow | undefined;
const lifetime = new AbortController();

const devServerUrl =
  typeof MAIN_WINDOW_VITE_DEV_SERVER_URL === 'string' && MAIN_WINDOW_VITE_DEV_SERVER_URL
    ? MAIN_WINDOW_VITE_DEV_SERVER_URL
    : undefined;

async function start(): Promise<void> {
  // One home for the window and the CLI (and the `home-agent mcp` an MCP client starts): the CLI's
  // data folder. Earlier versions kept the window's in Electron's own folder: moved once.
  const dataDir = resolveDataDir();
  const adopted = adoptDataFolder({
    from: app.getPath('userData'),
    to: dataDir,
    pluginFiles: BUILTIN_PLUGIN_DATA_FILES,
  });
  if (adopted !== undefined) console.error(`home-agent: ${adopted}`);
  // The desktop app runs on the embedded defaults: the simulated devices and the demo model,
  // unless settings come from the environment (HOME_AGENT_PROVIDER, …: see README, Models).
  const settings = readSettingEnvironment(process.env);
  const secrets = new EncryptedFileSecretStore({
    file: path.join(dataDir, SECRETS_FILE_NAME),
    cipher: safeStorageCipher,
  });
  const log = (line: string): void => console.error(`home-agent: ${line}`);
  // One host per home: an `mcp` that hosts it hands it over; a home another window serves is refused.
  await claimHome({ dataDir, command: 'the Home Agent desktop window', log }).catch(explainHeld(dataDir));
  host = await startHost({
    dataDir,
    sim: process.env.HOME_AGENT_SIM !== '0',
    devices: [],
    settings,
    transport: 'electron',
    command: 'the Home Agent desktop window',
    secrets,
    log,
    signal: lifetime.signal,
  });
  const link = await holdWindowHome(host, {
    dataDir,
    command: 'the Home Agent desktop window',
    doors: FRONT_END_DOORS,
    log,
  });
  lifetime.signal.addEventListener('abort', () => void link.close(), { once: true });

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [electronCsp({ devServer: devServerUrl !== undefined })],
      },
    });
  });
  ipcMain.handle(
    IPC_CALL,
    createIpcCallHandler({ handlers: () => host?.handlers, isTrustedUrl: trustedUrlCheck(devServerUrl) }),
  );
  host.events.subscribe((event) => window?.webContents.send(IPC_EVENT, event));
  host.notices.subscribe((notice) => window?.webContents.send(IPC_NOTICE, notice));

  window = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Home Agent',
    webPreferences: secureWebPreferences(path.join(import.meta.dirname, 'preload.js')),
  });
  // The window can show a plugin's question to the person while it is open.
  const windowClosed = host.elicitations.frontEndOpened();
  window.on('closed', () => {
    window = undefined;
    windowClosed();
  });
  if (devServerUrl) await window.loadURL(devServerUrl);
  else await window.loadFile(path.join(import.meta.dirname, `../renderer/${MAIN_WINDOW_VITE_NAME}/index.html`));
}

app.on('web-contents-created', (_event, contents) => guardNavigation(contents, (url) => void shell.openExternal(url)));

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
