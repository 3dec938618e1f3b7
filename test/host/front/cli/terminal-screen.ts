/**
 * A tiny terminal for tests: applies what a program wrote — text, newlines, carriage returns and
 * the few ANSI sequences `ask` uses (cursor up `ESC[nA`, erase line `ESC[2K`, erase below `ESC[J`)
 * — to a grid of lines, so a test reads what a person would see, not the bytes.
 */
export class TerminalScreen {
  private readonly lines: string[] = [''];
  private row = 0;
  private column = 0;

  write(text: string): void {
    // ESC built from its code, so the pattern holds no control character (no-control-regex).
    const escape = String.fromCharCode(27);
    const pattern = new RegExp(`${escape}\\[(\\d*)([AJK])|\\r|\\n|[^${escape}\\r\\n]+`, 'g');
    for (const match of text.matchAll(pattern)) {
      const [token, count, command] = match;
      if (command === 'A') this.row = Math.max(0, this.row - Number(count || '1'));
      else if (command === 'K') this.lines[this.row] = '';
      else if (command === 'J') {
        this.lines.splice(this.row + 1);
        this.lines[this.row] = (this.lines[this.row] ?? '').slice(0, this.column);
      } else if (token === '\r') this.column = 0;
      else if (token === '\n') {
        this.row += 1;
        this.column = 0;
        if (this.lines.length <= this.row) this.lines.push('');
      } else {
        const line = (this.lines[this.row] ?? '').padEnd(this.column);
        this.lines[this.row] = line.slice(0, this.column) + token + line.slice(this.column + token.length);
        this.column += token.length;
      }
    }
  }

  /** The screen's lines, without the empty line the cursor waits on at the end. */
  text(): string[] {
    return this.lines.at(-1) === '' ? this.lines.slice(0, -1) : [...this.lines];
  }
}
