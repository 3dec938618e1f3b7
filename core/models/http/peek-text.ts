/**
 * Reads streamed text until its first non-blank character and hands back that character plus the
 * whole stream (nothing consumed), so a caller can choose the framing by how the body starts.
 */
export async function peekText(
  text: AsyncIterable<string>,
): Promise<{ first: string | undefined; stream: AsyncIterable<string> }> {
  const iterator = text[Symbol.asyncIterator]();
  const seen: string[] = [];
  let first: string | undefined;
  let ended = false;
  while (first === undefined) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    seen.push(next.value);
    first = next.value.trimStart()[0];
  }
  async function* replay(): AsyncGenerator<string, void, undefined> {
    try {
      yield* seen;
      if (ended) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // Closing the replay closes the source (connection, timers).
      await iterator.return?.();
    }
  }
  return { first, stream: replay() };
}
