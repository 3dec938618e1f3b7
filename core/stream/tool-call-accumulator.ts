import type { ToolCallDeltaPart } from '../models/model-adapter.ts';

/** One call as the stream delivered it, before its arguments are parsed. */
export interface AccumulatedToolCall {
  /** Position in the flushed list (0-based, index order). */
  index: number;
  /** The provider's stream index (synthesised in arrival order where the provider sent none). */
  streamIndex: number;
  id: string;
  /** True when the provider sent no id and one was made up. */
  syntheticId: boolean;
  name: string | undefined;
  argumentsText: string;
  /** False for a call the stream never finished; such a call is never executed. */
  complete: boolean;
}

interface Bucket {
  streamIndex: number;
  arrival: number;
  id: string | undefined;
  name: string | undefined;
  argumentsText: string;
  requiresEnd: boolean;
  ended: boolean;
  /** Its place in the reply, fixed when it was taken to start early (see `takeFinal`). */
  taken?: number;
}

function present(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

/**
 * Collects streamed tool-call fragments into calls, keyed by stream index (docs/architecture.md, one turn as data).
 * A new id at an index in use starts a new call; a fragment with neither index nor new id continues
 * the latest call; `''`/`null` ids and names are absent; a name is set once. A call is final when
 * the wire says so (its `tool-call-end`: `takeFinal`, and it never grows after) or at `flush`,
 * never because its arguments happen to parse early.
 */
export class ToolCallAccumulator {
  private readonly buckets: Bucket[] = [];
  private latest: Bucket | undefined;
  private takenCount = 0;

  constructor(private readonly makeId: (position: number) => string = (position) => `call_${position}`) {}

  get size(): number {
    return this.buckets.length;
  }

  push(fragment: ToolCallDeltaPart): void {
    const id = present(fragment.id);
    const bucket = this.bucketFor(fragment.index, id, present(fragment.name));
    // A call the wire said was complete never grows again: it may already be running.
    if (bucket.ended && (fragment.argumentsDelta || (present(fragment.name) && bucket.name === undefined)))
      throw new Error(
        `the stream sent more of the tool call ${bucket.name ?? `at index ${bucket.streamIndex}`} after it said the call was complete`,
      );
    if (id !== undefined && bucket.id === undefined) bucket.id = id;
    const name = present(fragment.name);
    if (name !== undefined && bucket.name === undefined) bucket.name = name;
    if (fragment.argumentsDelta) bucket.argumentsText += fragment.argumentsDelta;
    if (fragment.requiresEnd) bucket.requiresEnd = true;
    this.latest = bucket;
  }

  /** The stream marked the call at `streamIndex` finished (e.g. Anthropic `content_block_stop`). */
  end(streamIndex: number): void {
    const bucket = this.latestAt(streamIndex);
    if (bucket) bucket.ended = true;
  }

  /**
   * The next call in index order when the wire has said it is complete (`tool-call-end`), else
   * undefined: a call is taken only once every call before it was taken, so calls are taken in the
   * order `flush` gives them and keep that place. A call still open (its arguments could still
   * grow), unnamed, or named `skip` (a wrapper that must never start alone) stops the taking there.
   */
  takeFinal(options: { skip?: string } = {}): AccumulatedToolCall | undefined {
    const next = this.ordered().find((bucket) => bucket.taken === undefined);
    if (!next || !next.ended || next.name === undefined || next.name === options.skip) return undefined;
    next.taken = this.takenCount++;
    return this.callOf(next, next.taken, true);
  }

  /**
   * Every call in index order (those taken early first, in the order taken). `streamCompleted` is
   * false when the stream was cut, aborted or failed: then no call counts as complete.
   */
  flush(options: { streamCompleted: boolean }): AccumulatedToolCall[] {
    return this.ordered().map((bucket, position) =>
      this.callOf(
        bucket,
        position,
        options.streamCompleted && (!bucket.requiresEnd || bucket.ended) && bucket.name !== undefined,
      ),
    );
  }

  /** Taken calls in the order taken, then the rest by stream index and arrival. */
  private ordered(): Bucket[] {
    return [...this.buckets].sort(
      (a, b) => (a.taken ?? Infinity) - (b.taken ?? Infinity) || a.streamIndex - b.streamIndex || a.arrival - b.arrival,
    );
  }

  private callOf(bucket: Bucket, position: number, complete: boolean): AccumulatedToolCall {
    return {
      index: position,
      streamIndex: bucket.streamIndex,
      id: bucket.id ?? this.makeId(position),
      syntheticId: bucket.id === undefined,
      name: bucket.name,
      argumentsText: bucket.argumentsText,
      complete,
    };
  }

  private bucketFor(streamIndex: number | undefined, id: string | undefined, name: string | undefined): Bucket {
    if (streamIndex === undefined) {
      const latest = this.latest;
      // Without an index, only an id or a second, different name can say a new call began.
      const newName = name !== undefined && latest?.name !== undefined && name !== latest.name && id === undefined;
      if (latest && !newName && (id === undefined || id === latest.id || latest.id === undefined)) return latest;
      return this.open(this.nextSyntheticIndex());
    }
    const current = this.latestAt(streamIndex);
    if (!current) return this.open(streamIndex);
    if (id !== undefined && current.id !== undefined && id !== current.id) return this.open(streamIndex);
    return current;
  }

  private latestAt(streamIndex: number): Bucket | undefined {
    for (let i = this.buckets.length - 1; i >= 0; i--) {
      const bucket = this.buckets[i];
      if (bucket && bucket.streamIndex === streamIndex) return bucket;
    }
    return undefined;
  }

  private nextSyntheticIndex(): number {
    let max = -1;
    for (const bucket of this.buckets) max = Math.max(max, bucket.streamIndex);
    return max + 1;
  }

  private open(streamIndex: number): Bucket {
    const bucket: Bucket = {
      streamIndex,
      arrival: this.buckets.length,
      id: undefined,
      name: undefined,
      argumentsText: '',
      requiresEnd: false,
      ended: false,
    };
    this.buckets.push(bucket);
    return bucket;
  }
}
