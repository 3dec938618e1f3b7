import type { ApiEnvelope } from '../host/contract/api-contract.ts';
import type { ApiHandlers } from '../host/api/api-handlers.ts';
import { apiFailureOf, dispatchApiCall } from '../host/api/dispatch-api-call.ts';

/** What the handler needs of an `ipcMain.handle` event: the frame that sent it. */
export interface IpcCallEvent {
  senderFrame: { url: string } | null;
}

/**
 * The main-process side of `home-agent:call`. The renderer is untrusted: a call from a frame whose
 * URL is not ours is refused (thrown), and every payload goes through the contract's zod schemas.
 * The answer is the contract's envelope, as on the web transport, because Electron keeps only the
 * message of a thrown error and a form needs the refused field and its issues.
 */
export function createIpcCallHandler(options: {
  handlers: () => ApiHandlers | undefined;
  isTrustedUrl: (url: string) => boolean;
}) {
  return async (event: IpcCallEvent, request: unknown): Promise<ApiEnvelope> => {
    const url = event.senderFrame?.url ?? '';
    if (!options.isTrustedUrl(url)) throw new Error(`IPC from an unknown frame (${url || 'no frame'}) was refused`);
    const handlers = options.handlers();
    if (!handlers) throw new Error('Home Agent is still starting or already stopping');
    const { method, input } = (typeof request === 'object' && request !== null ? request : {}) as {
      method?: unknown;
      input?: unknown;
    };
    if (typeof method !== 'string') throw new Error('IPC call without a method name');
    try {
      return { ok: true, result: await dispatchApiCall(handlers, method, input) };
    } catch (error) {
      return { ok: false, error: apiFailureOf(error) };
    }
  };
}

/** Our frames: the dev server while developing, else the packaged files. */
export function trustedUrlCheck(devServerUrl: string | undefined): (url: string) => boolean {
  if (devServerUrl) {
    const origin = new URL(devServerUrl).origin;
    return (url) => {
      try {
        return new URL(url).origin === origin;
      } catch {
        return false;
      }
    };
  }
  return (url) => url.startsWith('file://');
}
