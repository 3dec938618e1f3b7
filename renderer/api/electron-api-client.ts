import type { z } from 'zod';
import {
  agentEventSchema,
  apiEnvelopeSchema,
  hostNoticeSchema,
  type ApiInput,
  type ApiMethod,
  type ApiOutput,
  type HomeAgentBridge,
} from '../../host/contract/api-contract.ts';
import { ApiCallError, type ApiClient } from './api-client.ts';
import { outputOfEnvelope } from './output-of-envelope.ts';

/**
 * The API through the preload's `window.homeAgent`. The preload is trusted less than its name
 * suggests: every answer and event is checked against the contract before the UI sees it.
 */
export function createElectronApiClient(bridge: HomeAgentBridge): ApiClient {
  const unsubscribers = new Set<() => void>();
  /** Passes on only what matches the contract; the client owns every subscription until disposed. */
  function subscribeChecked<T>(
    subscribe: (listener: (raw: unknown) => void) => () => void,
    schema: z.ZodType<T>,
    what: string,
    listener: (value: T) => void,
  ): () => void {
    const unsubscribe = subscribe((raw) => {
      const parsed = schema.safeParse(raw);
      if (parsed.success) listener(parsed.data);
      else console.warn(`Dropped a malformed ${what} from the host:`, parsed.error.message);
    });
    unsubscribers.add(unsubscribe);
    return () => {
      unsubscribers.delete(unsubscribe);
      unsubscribe();
    };
  }
  return {
    transport: 'electron',
    async call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
      let raw: unknown;
      try {
        raw = await bridge.call(method, input);
      } catch (error) {
        throw new ApiCallError({ method, message: error instanceof Error ? error.message : String(error) });
      }
      const envelope = apiEnvelopeSchema.safeParse(raw);
      if (!envelope.success)
        throw new ApiCallError({ method, message: `The host's answer to ${method} is not an API envelope.` });
      return outputOfEnvelope({ method, envelope: envelope.data });
    },
    onNotice: (listener) => subscribeChecked(bridge.onNotice, hostNoticeSchema, 'notice', listener),
    onEvent: (listener) => subscribeChecked(bridge.onEvent, agentEventSchema, 'event', listener),
    onConnection(listener) {
      // IPC has no link to lose: the window lives exactly as long as its host.
      listener({ status: 'open' });
      return () => undefined;
    },
    dispose() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers.clear();
    },
  };
}
