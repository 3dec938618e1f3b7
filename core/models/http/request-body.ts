import { utf8Length } from '../../text/utf8-length.ts';

/** The size of every buffer a request body is encoded into (the last one is filled in part). */
export const REQUEST_BODY_CHUNK = 65_536;
/** Request JSON up to this many UTF-16 code units is given to `fetch` as the string. */
export const SHORT_REQUEST_BODY = 4_096;

/** What `fetch` is given for request JSON: the string, or its bytes as a stream with their exact length. */
export type RequestBody = { body: string } | { body: ReadableStream<Uint8Array>; contentLength: number };

const encoder = new TextEncoder();

/**
 * The body of a request for `json` (JSON.stringify's output): short JSON as the string; longer
 * JSON streamed to `fetch` with its Content-Length (never chunked), encoded as `fetch` reads it
 * into buffers that are all REQUEST_BODY_CHUNK bytes.
 *
 * Why: a request's bytes are native memory that waits for a garbage collection. When each request
 * asks for blocks of new sizes (the whole body as one block, or a Blob's pieces and their copies,
 * a little larger every turn as the history grows), glibc's heap keeps the freed blocks as holes
 * the next sizes do not fit, and the blocks pile up between major collections: with the whole
 * history in every request, RSS grew 30–70 MB over 1,000 turns while the V8 heap grew 3 MB. Here
 * the blocks are of one size (each fits another's hole), nothing is copied on the way (the stream
 * hands `fetch` these buffers as they are), and each is made only when `fetch` asks for the next
 * one, so few are alive at once and most die young, freed at the next minor collection.
 */
export function requestBodyOf(json: string): RequestBody {
  if (json.length <= SHORT_REQUEST_BODY) return { body: json };
  let read = 0;
  // A default (not byte) stream: enqueueing does not transfer the buffer, so nothing is copied.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (read >= json.length) return controller.close();
      const chunk = new Uint8Array(REQUEST_BODY_CHUNK);
      // encodeInto never splits a character: it stops before one that does not fit.
      const { read: units, written } = encoder.encodeInto(json.slice(read), chunk);
      read += units;
      controller.enqueue(chunk.subarray(0, written));
    },
  });
  return { body, contentLength: utf8Length(json) };
}
