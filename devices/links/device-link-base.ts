import { Emitter } from '../../core/events/emitter.ts';
import { ToolError } from '../../core/tools/tool-error.ts';
import type { EventFrame, HelloResult } from '../protocol/frame-schema.ts';
import type { CallOptions, FrameProblem, SessionStats, SessionStatus } from './session-types.ts';
import type { DeviceLink } from './device-link.ts';

/**
 * What every way in to a device keeps the same way: its status and hello, the listeners of its
 * status, events and problems, its frame counters, waiting until it is online, and refusing a call
 * while it is not. A link class adds how it connects (`start`), runs an action (`call`) and lets go
 * (`dispose`, which ends with `clearListeners`).
 */
export abstract class DeviceLinkBase implements DeviceLink {
  readonly stats: SessionStats = { oversized: 0, invalidJson: 0, invalidFrame: 0, unmatchedResponse: 0, connects: 0 };
  /** Aborted by `dispose`: ends the link's connect loop and every wait for it. */
  protected readonly lifetime = new AbortController();
  private statusValue: SessionStatus = 'connecting';
  private helloValue: HelloResult | undefined;
  /** The latest trouble while not online (a refused hello, a dropped line, a timeout): why it is not online yet. */
  private trouble: FrameProblem | undefined;
  private readonly statusListeners = new Emitter<SessionStatus>({ name: 'device status' });
  private readonly eventListeners = new Emitter<EventFrame>({ name: 'device event' });
  private readonly problemListeners = new Emitter<FrameProblem>({ name: 'device problem' });

  constructor(readonly label: string) {}

  abstract start(): void;
  abstract call(tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  abstract dispose(): Promise<void>;

  get status(): SessionStatus {
    return this.statusValue;
  }

  /** The latest hello (kept while offline, so the device's tools stay known). */
  get hello(): HelloResult | undefined {
    return this.helloValue;
  }

  onStatus(listener: (status: SessionStatus) => void): () => void {
    return this.statusListeners.subscribe(listener);
  }

  onEvent(listener: (event: EventFrame) => void): () => void {
    return this.eventListeners.subscribe(listener);
  }

  onProblem(listener: (problem: FrameProblem) => void): () => void {
    return this.problemListeners.subscribe(listener);
  }

  /**
   * Resolves with the hello once online. Rejects `device_offline` on timeout, abort or dispose —
   * saying why it may not be online (`notOnlineHint`) — and at once when the device's hello is
   * refused, with the reason (the link keeps asking: a reflashed device may come up later).
   */
  whenOnline(options: { timeoutMs: number; signal?: AbortSignal }): Promise<HelloResult> {
    if (this.statusValue === 'online' && this.helloValue) return Promise.resolve(this.helloValue);
    return new Promise((resolve, reject) => {
      // A timer of its own, not AbortSignal.timeout: a timeout signal only AbortSignal.any refers to
      // may be collected before it fires (Node 20), leaving the wait to the caller's signal alone.
      const timedOut = new AbortController();
      const timer = setTimeout(() => timedOut.abort(), options.timeoutMs);
      const signal = AbortSignal.any([
        this.lifetime.signal,
        timedOut.signal,
        ...(options.signal ? [options.signal] : []),
      ]);
      const finish = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        removeStatus();
        removeProblem();
      };
      const refused = (detail: string): void => {
        finish();
        reject(
          new ToolError({
            reason: 'device_offline',
            detail: `${this.label}: ${detail}`,
            hint: 'the device must change its hello (its firmware) before Home Agent can use it',
          }),
        );
      };
      const stop = (): void => {
        finish();
        const hint = this.notOnlineHint();
        reject(
          new ToolError({
            reason: 'device_offline',
            detail: `${this.label}: not online within ${options.timeoutMs} ms${hint === undefined ? '' : ` (${hint})`}`,
          }),
        );
      };
      const removeStatus = this.onStatus((status) => {
        if (status !== 'online' || !this.helloValue) return;
        finish();
        resolve(this.helloValue);
      });
      const removeProblem = this.onProblem((problem) => {
        if (problem.problem === 'hello_refused') refused(problem.detail);
      });
      if (this.trouble?.problem === 'hello_refused') refused(this.trouble.detail);
      else if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }

  /** What a wait that ran out adds, in brackets, to "not online within N ms": by default the last trouble. */
  protected notOnlineHint(): string | undefined {
    return this.trouble === undefined ? undefined : `last: ${this.trouble.detail}`;
  }

  /**
   * The hello to run `tool` under. A link still making its first connection (the app just started)
   * is given `waitMs` to come up; one that was online and dropped fails fast (never a hang).
   * Rejects `device_offline` when not online, `failed` when the device has no such action.
   */
  protected async helloFor(
    tool: string,
    options: { waitMs: number; signal?: AbortSignal | undefined },
  ): Promise<HelloResult> {
    if (this.statusValue === 'connecting') {
      await this.whenOnline({
        timeoutMs: options.waitMs,
        ...(options.signal ? { signal: options.signal } : {}),
      }).catch(() => undefined);
    }
    const hello = this.requireOnline();
    if (!hello.tools.some((declared) => declared.name === tool)) {
      throw new ToolError({ reason: 'failed', detail: `${hello.device.id} has no action "${tool}"` });
    }
    return hello;
  }

  /** The hello while online; otherwise throws `device_offline` naming the device and its status. */
  protected requireOnline(): HelloResult {
    if (this.statusValue !== 'online' || this.helloValue === undefined) {
      throw new ToolError({
        reason: 'device_offline',
        detail: `${this.deviceId} is ${this.statusValue}`,
        hint: 'retry once the device is back',
      });
    }
    return this.helloValue;
  }

  /** For messages: the device's id once it said hello, else the link's label. */
  protected get deviceId(): string {
    return this.helloValue?.device.id ?? this.label;
  }

  /** The device answered with `hello`: it is online, its troubles are past, one more connection is counted. */
  protected goOnline(hello: HelloResult): void {
    this.helloValue = hello;
    this.trouble = undefined;
    this.stats.connects += 1;
    this.setStatus('online');
  }

  protected setStatus(status: SessionStatus): void {
    if (this.statusValue === status) return;
    this.statusValue = status;
    this.statusListeners.emit(status);
  }

  /** Tells the problem listeners; while not online it is also why (`notOnlineHint`), until the next hello. */
  protected reportProblem(problem: FrameProblem): void {
    if (this.statusValue !== 'online') this.trouble = problem;
    this.problemListeners.emit(problem);
  }

  protected reportEvent(event: EventFrame): void {
    this.eventListeners.emit(event);
  }

  /** Drops every listener: the last step of `dispose`. */
  protected clearListeners(): void {
    this.statusListeners.clear();
    this.eventListeners.clear();
    this.problemListeners.clear();
  }
}
