/**
 * Splits a byte stream into `\n`-terminated lines with a hard size limit. serialport's
 * ReadlineParser/DelimiterParser buffer without bound, so a device that never sends a newline
 * would grow memory forever; here an over-long line is dropped and reported once.
 */
export class LineFramer {
  private chunks: Buffer[] = [];
  private length = 0;
  private discarding = false;
  private discarded = 0;

  constructor(
    private readonly options: { maxBytes: number; onLine(line: string): void; onOversized(bytes: number): void },
  ) {}

  /** Bytes held for the unfinished line; never more than maxBytes + 1. */
  get bufferedBytes(): number {
    return this.length;
  }

  push(data: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = data.indexOf(0x0a, start);
      if (newline === -1) {
        this.accumulate(data.subarray(start));
        return;
      }
      this.accumulate(data.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
  }

  private accumulate(part: Buffer): void {
    if (part.length === 0) return;
    if (this.discarding) {
      this.discarded += part.length;
      return;
    }
    this.chunks.push(part);
    this.length += part.length;
    // +1 leaves room for a trailing `\r` that is stripped later.
    if (this.length > this.options.maxBytes + 1) {
      this.discarding = true;
      this.discarded = this.length;
      this.chunks = [];
      this.length = 0;
    }
  }

  private finishLine(): void {
    if (this.discarding) {
      const bytes = this.discarded;
      this.discarding = false;
      this.discarded = 0;
      this.options.onOversized(bytes);
      return;
    }
    let line = Buffer.concat(this.chunks, this.length);
    this.chunks = [];
    this.length = 0;
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    if (line.length > this.options.maxBytes) {
      this.options.onOversized(line.length);
      return;
    }
    if (line.length === 0) return;
    this.options.onLine(line.toString('utf8'));
  }
}
