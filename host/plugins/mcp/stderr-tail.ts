import { StringDecoder } from 'node:string_decoder';

/** Characters of a server's stderr kept: enough for the last error and its context, whatever it writes. */
export const STDERR_TAIL_CHARACTERS = 4_096;

/**
 * The end of a child's stderr, bounded: at most `limit` characters are kept however much it writes
 * (a flood costs the time to read it, never memory). The text starts at a line's start once
 * anything was cut, so a secret split by the cut is never half shown before it is redacted.
 */
export class StderrTail {
  private text = '';
  private cut = false;
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly limit = STDERR_TAIL_CHARACTERS) {}

  append(chunk: Buffer | string): void {
    this.text += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    // Trimmed only past twice the limit, so a stream of small chunks is not copied once per chunk.
    if (this.text.length > 2 * this.limit) {
      this.text = this.text.slice(-this.limit);
      this.cut = true;
    }
  }

  /** The kept text, from the first whole line when something was cut. */
  read(): string {
    let text = this.text.length > this.limit ? this.text.slice(-this.limit) : this.text;
    if (this.cut || this.text.length > this.limit) {
      const newline = text.indexOf('\n');
      text = newline === -1 ? '' : text.slice(newline + 1);
    }
    return text;
  }

  clear(): void {
    this.text = '';
    this.cut = false;
  }
}
