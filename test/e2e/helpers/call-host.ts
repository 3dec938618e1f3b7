import type { RunningHost } from './start-host.ts';

/**
 * Calls the running host's API directly (`POST /api/<method>` with its token): the witness of what
 * the host really stored, independent of what the page shows.
 */
export async function callHost(
  host: RunningHost,
  method: string,
  input: Record<string, unknown> = {},
): Promise<unknown> {
  const response = await fetch(`${host.origin}api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(10_000),
  });
  const envelope = (await response.json()) as { ok: boolean; result?: unknown; error?: { message: string } };
  if (!envelope.ok)
    throw new Error(`${method} answered HTTP ${response.status}: ${envelope.error?.message ?? 'no message'}`);
  return envelope.result;
}
