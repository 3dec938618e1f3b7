/** One NDJSON line. `atEnd`: the body ended without the line's newline (it may be cut). */
export interface NdjsonLine {
  line: string;
  atEnd: boolean;
}

/** Non-blank lines of newline-delimited JSON from streamed text, whatever the chunk borders. */
export async function* ndjsonLines(text: AsyncIterable<string>): AsyncGenerator<NdjsonLine, void, undefined> {
  let buffer = '';
  for await (const chunk of text) {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line !== '') yield { line, atEnd: false };
      newline = buffer.indexOf('\n');
    }
  }
  const rest = buffer.trim();
  if (rest !== '') yield { line: rest, atEnd: true };
}
