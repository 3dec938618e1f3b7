/**
 * Yields `first`'s text; when `first` fails before its first chunk (a status reply, so nothing was
 * streamed yet) and `fallback` offers another stream for that error, yields that one instead.
 * Errors after the first chunk, or that `fallback` declines (undefined), are thrown as they are.
 */
export async function* fallbackBeforeFirstChunk(
  first: AsyncIterable<string>,
  fallback: (error: unknown) => AsyncIterable<string> | undefined,
): AsyncGenerator<string, void, undefined> {
  const iterator = first[Symbol.asyncIterator]();
  let head: IteratorResult<string>;
  try {
    head = await iterator.next();
  } catch (error) {
    const other = fallback(error);
    if (!other) throw error;
    yield* other;
    return;
  }
  try {
    while (!head.done) {
      yield head.value;
      head = await iterator.next();
    }
  } finally {
    // Stopping early (the consumer broke off) releases the first request's connection.
    await iterator.return?.();
  }
}
