/**
 * Cuts text that arrives in chunks (a socket's, a pipe's) into lines, calling `onLine` with each
 * whole line, without its `\n`. Feed it the chunks; each feeding answers how many characters still
 * wait for their newline, so a reader can bound what it holds.
 */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => number {
  let buffered = '';
  return (chunk) => {
    buffered += chunk;
    let start = 0;
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n', start)) {
      const line = buffered.slice(start, newline);
      start = newline + 1;
      onLine(line);
    }
    buffered = buffered.slice(start);
    return buffered.length;
  };
}
