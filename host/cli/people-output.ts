import type { AgentEvent } from '../../core/events/agent-event.ts';
import { safeLines } from '../../core/text/safe-text.ts';
import {
  formatBatchFooter,
  formatBatchHeader,
  formatCallRow,
  formatDeviceState,
  formatTurnEnding,
  type CallRow,
} from './format-event.ts';
import { contextLine } from '../contract/context-line.ts';

/** Where the output goes, and whether it is a terminal whose lines can be redrawn (and how wide it is). */
export interface PeopleOutputOptions {
  write: (text: string) => void;
  /** A terminal: the batch's rows are drawn at once and redrawn in place as calls start and end. */
  terminal?: { columns: () => number };
  now?: () => number;
  /** Runs `tick` every `ms` until the returned function is called (the live "running 1.2 s"). */
  every?: (ms: number, tick: () => void) => () => void;
}

interface OpenBatch {
  header: string;
  rows: CallRow[];
  /** Channel sends, held until the rows are final so the redrawn block stays the last thing printed. */
  outputs: string[];
  /** How many lines the live block occupies on the terminal. */
  drawn: number;
}

const TICK_MS = 250;

/**
 * `ask`'s output for people (not a contract): the assistant's text as it streams, then each batch
 * as a block of 1-based rows in index order with full arguments and outcomes in words. On a
 * terminal the block is drawn when the batch starts and each row is redrawn in place while its
 * call queues, runs (with a live time) and ends; elsewhere the block is printed once, when the
 * batch ends. When the model's context window is known, the turn closes with how full it was
 * ("Context: 5,210 of 8,192 tokens · 14 earlier turns not sent"). Owns its ticker: `dispose` stops it.
 */
export class PeopleOutput {
  private readonly now: () => number;
  private batch: OpenBatch | undefined;
  private batches = 0;
  private atLineStart = true;
  private stopTicking: (() => void) | undefined;
  /** How full the model's window was at the turn's last request, said when the turn ends. */
  private context: string | undefined;

  constructor(private readonly options: PeopleOutputOptions) {
    this.now = options.now ?? Date.now;
  }

  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'text/delta':
        // The model may repeat what a device said: its lines stay lines, nothing else acts.
        this.print(safeLines(event.text));
        return;
      case 'message/assistant':
        this.endLine();
        return;
      case 'batch/start':
        this.startBatch(event);
        return;
      case 'tool/start':
        this.updateRow(event.index, (row) => ({ ...row, status: 'running', startedAt: this.now() }));
        return;
      case 'tool/end':
        this.updateRow(event.index, (row) => ({
          ...row,
          status: 'ended',
          ok: event.ok,
          ...(event.outcome !== undefined ? { outcome: event.outcome } : {}),
          ...(event.result !== undefined ? { result: event.result } : {}),
          ...(event.error !== undefined ? { error: event.error } : {}),
          runMs: event.runMs,
          ...(event.approvalMs !== undefined ? { approvalMs: event.approvalMs } : {}),
        }));
        return;
      case 'output/send':
        this.batch?.outputs.push(`│ → [${event.channel}] ${safeLines(event.text)}`);
        return;
      case 'batch/end':
        this.endBatch(event);
        return;
      case 'device/state':
        this.line(formatDeviceState(event));
        return;
      case 'request/header':
        this.context = contextLine(event);
        return;
      case 'context/warning':
        this.line(`⚠ ${event.message}`);
        return;
      case 'turn/end': {
        this.endLine();
        if (this.context) this.line(this.context);
        this.context = undefined;
        const ending = formatTurnEnding(event);
        if (ending) this.line(ending);
        this.dispose();
        return;
      }
      default:
        return;
    }
  }

  /** Stops the live ticker (the turn ended, or the command is leaving). */
  dispose(): void {
    this.stopTicking?.();
    this.stopTicking = undefined;
  }

  private startBatch(event: Extract<AgentEvent, { type: 'batch/start' }>): void {
    this.endLine();
    this.batches += 1;
    const rows = event.calls
      .map((call): CallRow => ({ index: call.index, name: call.name, args: call.args, status: 'queued' }))
      .sort((left, right) => left.index - right.index);
    this.batch = { header: formatBatchHeader(event, this.batches), rows, outputs: [], drawn: 0 };
    if (this.options.terminal) {
      this.redraw();
      this.stopTicking = (this.options.every ?? every)(TICK_MS, () => {
        if (this.batch?.rows.some((row) => row.status === 'running')) this.redraw();
      });
    }
  }

  private updateRow(index: number, change: (row: CallRow) => CallRow): void {
    const batch = this.batch;
    if (!batch) return;
    const position = batch.rows.findIndex((row) => row.index === index);
    if (position === -1) return;
    batch.rows[position] = change(batch.rows[position]!);
    if (this.options.terminal) this.redraw();
  }

  private endBatch(event: Extract<AgentEvent, { type: 'batch/end' }>): void {
    const batch = this.batch;
    if (!batch) return;
    this.dispose();
    // The final block in full: on a terminal it replaces the live one (long lines may now wrap).
    if (this.options.terminal && batch.drawn > 0) this.options.write(`\x1b[${batch.drawn}A\r\x1b[J`);
    const now = this.now();
    for (const line of [batch.header, ...batch.rows.map((row) => formatCallRow(row, now)), ...batch.outputs])
      this.line(line);
    this.line(formatBatchFooter(event, batch.rows.length));
    this.batch = undefined;
  }

  /** Draws the live block again over its previous drawing, each line cut to the terminal's width. */
  private redraw(): void {
    const batch = this.batch;
    const terminal = this.options.terminal;
    if (!batch || !terminal) return;
    const width = Math.max(20, terminal.columns() - 1);
    const now = this.now();
    // Each row is one line (formatCallRow shows what devices said safely), so the count to redraw over holds.
    const lines = [batch.header, ...batch.rows.map((row) => formatCallRow(row, now))].map((line) =>
      line.length > width ? `${line.slice(0, width - 1)}…` : line,
    );
    const up = batch.drawn > 0 ? `\x1b[${batch.drawn}A` : '';
    this.options.write(`${up}${lines.map((line) => `\r\x1b[2K${line}\n`).join('')}`);
    batch.drawn = lines.length;
  }

  private print(text: string): void {
    if (text === '') return;
    this.options.write(text);
    this.atLineStart = text.endsWith('\n');
  }

  private line(text: string): void {
    this.endLine();
    this.options.write(`${text}\n`);
    this.atLineStart = true;
  }

  private endLine(): void {
    if (!this.atLineStart) this.options.write('\n');
    this.atLineStart = true;
  }
}

function every(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  // The ticker only redraws: it must never keep the process alive.
  timer.unref?.();
  return () => clearInterval(timer);
}
