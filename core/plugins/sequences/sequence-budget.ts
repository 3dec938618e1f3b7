import { compactJson } from '../../tools/tool-result.ts';
import { utf8Length } from '../../text/utf8-length.ts';

/** What one run of a sequence may spend, nested sequences included. */
export interface SequenceBudget {
  /** Calls started (tool calls and `sequence:` calls), across every nested run. */
  maxCalls: number;
  /** The tool results kept in the report, as compact JSON in UTF-8 bytes. */
  maxResultBytes: number;
  /** From the start of the run to its end. */
  wallTimeMs: number;
}

/**
 * The defaults. 2,000 calls: the largest sequence the schema allows (50 groups of 32 calls = 1,600)
 * runs whole, so only nesting can reach the limit — and one fan-out of 32 four deep would start
 * over a million. 256 KiB of results: about 64k tokens, more than a model's context takes in one
 * tool result, far above what device calls return (well under 1 KB each), and it keeps the journal
 * row and the report small. 120 s: a 50-group sequence of 250 ms device calls needs 12.5 s; slower
 * devices get ten times that, and a person waiting on a reply gets an answer within two minutes.
 */
export const DEFAULT_SEQUENCE_BUDGET: Readonly<SequenceBudget> = {
  maxCalls: 2_000,
  maxResultBytes: 262_144,
  wallTimeMs: 120_000,
};

/**
 * Calls that may start before the run yields to the event loop. Tools that answer at once never
 * yield by themselves, so without this a whole tree of calls would start before the first ran:
 * the clock check would see no time pass, and no timer, abort or web request could get a turn.
 */
export const CALLS_BETWEEN_YIELDS = 32;

export type SequenceBudgetName = 'calls' | 'result_bytes' | 'wall_time';

/** Which budget stopped a run, its limit, and how much had been spent when it tripped. */
export interface SequenceBudgetExceeded {
  budget: SequenceBudgetName;
  limit: number;
  used: number;
}

/** The budget in words: `2,000 calls`, `262,144 bytes of results`, `120,000 ms`. */
export function describeBudget(exceeded: Pick<SequenceBudgetExceeded, 'budget' | 'limit'>): string {
  const limit = exceeded.limit.toLocaleString('en-US');
  if (exceeded.budget === 'calls') return `${limit} calls`;
  if (exceeded.budget === 'result_bytes') return `${limit} bytes of results`;
  return `${limit} ms`;
}

/**
 * The spending of one run, shared by its nested runs. It is checked before every call starts and
 * after every result arrives — on the clock itself, not only by a timer, since tools that answer
 * at once never let a timer fire. It trips once and then calls `stop`, which aborts the run.
 */
export class RunBudget {
  private calls = 0;
  private resultBytes = 0;
  private sinceYield = 0;
  private gate: Promise<void> = Promise.resolve();
  private readonly startedAt: number;
  private tripped: SequenceBudgetExceeded | undefined;
  private trippedText = '';

  constructor(
    private readonly options: {
      budget: SequenceBudget;
      now: () => number;
      stop: (exceeded: SequenceBudgetExceeded) => void;
    },
  ) {
    this.startedAt = options.now();
  }

  /** Set once a budget has tripped. */
  get exceeded(): SequenceBudgetExceeded | undefined {
    return this.tripped;
  }

  /** The tripped budget in words (`2,000 calls`), worked out once: every call not started repeats it. */
  get exceededText(): string {
    return this.trippedText;
  }

  /**
   * Resolves when the next call may start: every CALLS_BETWEEN_YIELDS calls, after a macrotask,
   * so the calls already started run first. Calls arriving meanwhile wait on the same turn.
   */
  pace(): Promise<void> {
    // Once tripped nothing more starts, so the calls still arriving need not wait for a turn.
    if (this.tripped) return this.gate;
    this.sinceYield += 1;
    if (this.sinceYield >= CALLS_BETWEEN_YIELDS) {
      this.sinceYield = 0;
      this.gate = new Promise((resolve) => setTimeout(resolve, 0));
    }
    return this.gate;
  }

  /** Counts a call about to start; false (and the run stopped) when the budget has none left. */
  startCall(): boolean {
    if (this.tripped) return false;
    const { budget } = this.options;
    const elapsed = this.options.now() - this.startedAt;
    if (elapsed >= budget.wallTimeMs) {
      this.trip({ budget: 'wall_time', limit: budget.wallTimeMs, used: elapsed });
      return false;
    }
    if (this.calls >= budget.maxCalls) {
      this.trip({ budget: 'calls', limit: budget.maxCalls, used: this.calls });
      return false;
    }
    this.calls += 1;
    return true;
  }

  /**
   * Counts a result and returns what the report may keep: the value, or — once the results
   * would exceed their budget — a short note in its place, so the report stays bounded.
   */
  keepResult(value: unknown): unknown {
    if (value === undefined) return value;
    const bytes = utf8Length(compactJson(value));
    const limit = this.options.budget.maxResultBytes;
    if (!this.tripped && this.resultBytes + bytes <= limit) {
      this.resultBytes += bytes;
      return value;
    }
    if (!this.tripped) this.trip({ budget: 'result_bytes', limit, used: this.resultBytes + bytes });
    return {
      omitted: `this result (${bytes.toLocaleString('en-US')} bytes) was left out: the run's results are limited to ${describeBudget({ budget: 'result_bytes', limit })}`,
    };
  }

  /** The wall-time timer fired (a call was waiting on real work). */
  timeUp(): void {
    if (this.tripped) return;
    const { wallTimeMs } = this.options.budget;
    this.trip({ budget: 'wall_time', limit: wallTimeMs, used: this.options.now() - this.startedAt });
  }

  private trip(exceeded: SequenceBudgetExceeded): void {
    this.tripped = exceeded;
    this.trippedText = describeBudget(exceeded);
    this.options.stop(exceeded);
  }
}
