import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { safeLines } from '../../../core/text/safe-text.ts';
import { emptyCallRecords, foldCallRecords, type CallRecords } from '../../../core/events/fold-call-records.ts';
import {
  formatBatchFooter,
  formatBatchHeader,
  formatCallRow,
  formatDeviceState,
  formatTurnEnding,
} from './format-event.ts';
import { contextLine } from '../../contract/context-line.ts';

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
  id: string;
  /** Channel sends, held until the rows are final so the redrawn block stays the last thing printed. */
  outputs: string[];
  /** How many lines the live block occupies on the terminal. */
  drawn: number;
}

const TICK_MS = 250;

/**
 * `ask`'s output for people (not a contract): the assistant's text as it streams, then each batch
 * as a block of 1-based rows in index order with full arguments and outcomes in words, read from
 * core's one fold of call records. On a terminal the block is drawn when the batch starts (the
 * reply has ended: calls that started while it streamed show where they are) and each row is
 * redrawn in place while its call queues, runs (with a live time) and ends; elsewhere the block is
 * printed once, when the batch ends. When the model's context window is known, the turn closes with
 * how full it was ("Context: 5,210 of 8,192 tokens · 14 earlier turns not sent"). Owns its ticker:
 * `dispose` stops it.
 */
export class PeopleOutput {
  private readonly now: () => number;
  private records: CallRecords = emptyCallRecords;
  private batch: OpenBatch | undefined;
  /** When this output saw each call start, by its own clock (the live "running 1.2 s"). */
  private readonly seenRunning = new Map<string, number>();
  private atLineStart = true;
  private stopTicking: (() => void) | undefined;
  /** How full the model's window was at the turn's last request, said when the turn ends. */
  private context: string | undefined;

  constructor(private readonly options: PeopleOutputOptions) {
    this.now = options.now ?? Date.now;
  }

  handle(event: AgentEvent): void {
    this.records = foldCallRecords(this.records, [event]);
    switch (event.type) {
      case 'text/delta':
        // The model may repeat what a device said: its lines stay lines, nothing else acts.
        this.print(safeLines(event.text));
        return;
      case 'message/assistant':
        this.endLine();
        return;
      case 'batch/start':
        this.startBatch(event.batchId);
        return;
      case 'tool/start':
        this.seenRunning.set(event.callId, this.now());
        this.changed(event.batchId);
        return;
      case 'tool/end':
        this.changed(event.batchId);
        return;
      case 'output/send':
        if (this.batch?.id === event.batchId)
          this.batch.outputs.push(`│ → [${event.channel}] ${safeLines(event.text)}`);
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

  private startBatch(batchId: string): void {
    this.endLine();
    this.batch = { id: batchId, outputs: [], drawn: 0 };
    if (this.options.terminal) {
      this.redraw();
      this.stopTicking = (this.options.every ?? every)(TICK_MS, () => {
        if (this.record()?.calls.some((call) => call.status === 'running')) this.redraw();
      });
    }
  }

  private changed(batchId: string): void {
    if (this.options.terminal && this.batch?.id === batchId) this.redraw();
  }

  private record() {
    return this.batch ? this.records.batches[this.batch.id] : undefined;
  }

  /** The block's lines: the header, then a row per call in index order. */
  private blockLines(now: number): string[] {
    const record = this.record();
    if (!record) return [];
    return [
      formatBatchHeader(record),
      ...record.calls.map((call) =>
        formatCallRow({ ...call, runningSince: this.seenRunning.get(call.callId) ?? call.runningSince }, now),
      ),
    ];
  }

  private endBatch(event: Extract<AgentEvent, { type: 'batch/end' }>): void {
    const batch = this.batch;
    if (!batch || batch.id !== event.batchId) return;
    this.dispose();
    // The final block in full: on a terminal it replaces the live one (long lines may now wrap).
    if (this.options.terminal && batch.drawn > 0) this.options.write(`\x1b[${batch.drawn}A\r\x1b[J`);
    for (const line of [...this.blockLines(this.now()), ...batch.outputs]) this.line(line);
    this.line(formatBatchFooter(event, this.record()?.calls.length ?? 0));
    this.batch = undefined;
    this.seenRunning.clear();
  }

  /** Draws the live block again over its previous drawing, each line cut to the terminal's width. */
  private redraw(): void {
    const batch = this.batch;
    const terminal = this.options.terminal;
    if (!batch || !terminal) return;
    const width = Math.max(20, terminal.columns() - 1);
    // Each row is one line (formatCallRow shows what devices said safely), so the count to redraw over holds.
    const lines = this.blockLines(this.now()).map((line) =>
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
