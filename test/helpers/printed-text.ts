/** What a process has printed on one stream so far, and waits for what it has not printed yet. */
export class PrintedText {
  private text = '';
  private readonly waiters = new Set<() => void>();

  /** Takes the next chunk and wakes the waits it may satisfy. */
  add(chunk: Buffer | string): void {
    this.text += chunk.toString();
    for (const wake of [...this.waiters]) wake();
  }

  toString(): string {
    return this.text;
  }

  /** Resolves with all of it once the text from `after` characters on matches `pattern` (printed already or later). */
  when(pattern: RegExp, after = 0): Promise<string> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (!pattern.test(this.text.slice(after))) return;
        this.waiters.delete(check);
        resolve(this.text);
      };
      this.waiters.add(check);
      check();
    });
  }
}
