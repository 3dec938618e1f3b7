import { z } from 'zod';
import { ollamaServer } from './ollama-server.ts';

const versionSchema = z.object({ version: z.string() });
const PROBE_TIMEOUT_MS = 1500;

/**
 * True when an Ollama server answers `/api/version` at `baseUrl` within a moment; false for
 * anything else (nothing listening, another server, a timeout). Used to pick the default model.
 */
export async function probeOllama(baseUrl = ollamaServer.defaultBaseUrl, signal?: AbortSignal): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('probe timed out')), PROBE_TIMEOUT_MS);
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/api/version`, { signal: controller.signal });
    if (!response.ok) {
      await response.body?.cancel();
      return false;
    }
    const text = await response.text();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Something answered, but not with JSON: not Ollama.
      return false;
    }
    return versionSchema.safeParse(value).success;
  } catch (error) {
    // Refused, reset or timed out: no Ollama here. The probe's job is a yes/no answer.
    void error;
    return false;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
