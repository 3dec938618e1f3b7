import { MAX_FRAME_BYTES, requestFrameSchema } from './frame-schema.ts';
import type { RequestFrame } from './frame-schema.ts';
import { leadingRequestId } from './leading-request-id.ts';
import { parseJsonLine } from './parse-json-line.ts';

/** A line from the host as firmware sees it: a request, or why it is not one (with its id when readable). */
export type RequestFrameResult =
  | { ok: true; frame: RequestFrame }
  | { ok: false; id: number | null; problem: 'oversized' | 'invalid_json' | 'invalid_frame'; detail: string };

/**
 * Parses one line (newline stripped) sent by the host; firmware answers invalid ones with an error
 * frame. A line too long or not JSON still yields the id it starts with (the host writes it first).
 */
export function parseRequestFrame(line: string, maxBytes = MAX_FRAME_BYTES): RequestFrameResult {
  const json = parseJsonLine(line, maxBytes);
  if (!json.ok) return { ok: false, id: leadingRequestId(line), problem: json.problem, detail: json.detail };
  const request = requestFrameSchema.safeParse(json.value);
  if (request.success) return { ok: true, frame: request.data };
  const rawId = (json.value as { id?: unknown } | null)?.id;
  const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) && rawId >= 0 ? rawId : null;
  const issue = request.error.issues[0];
  return {
    ok: false,
    id,
    problem: 'invalid_frame',
    detail: issue ? `${issue.path.join('.')}: ${issue.message}` : 'bad request',
  };
}
