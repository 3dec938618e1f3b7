import { ToolError } from '../../core/tools/tool-error.ts';
import { encodeFrame } from '../protocol/encode-frame.ts';
import { helloResultSchema } from '../protocol/frame-schema.ts';
import type { EventFrame, HelloResult, RequestFrame, ResponseFrame } from '../protocol/frame-schema.ts';
import { parseDeviceFrame } from '../protocol/parse-device-frame.ts';
import { abortableDelay } from '../transport/abortable-delay.ts';
import type { LineTransport, TransportClose, TransportConnector } from '../transport/line-transport.ts';
import { CallLane } from './call-lane.ts';
import { Listeners } from './listeners.ts';
import { mapDeviceError } from './map-device-error.ts';
import { PendingRequests } from './pending-requests.ts';

type RequestBody = { op: 'hello' } | { op: 'call'; tool: string; args: Record<string, unknown> };

/** `connecting` before the first hello, `offline` after losing the port, `closed` once disposed. */
export type SessionStatus = 'connecting' | 'online' | 'offline' | 'closed';

/** A frame the session could not use (counted in `stats`) or a failed connection attempt; reported to `onProblem`. */
export interface FrameProblem {
  problem: 'oversized' | 'invalid_json' | 'invalid_frame' | 'unmatched_response' | 'connection';
  detail: string;
}

/** Counters of frames the session dropped. */
export interface SessionStats {
  oversized: number;
  invalidJson: number;
  invalidFrame: number;
  unmatchedResponse: number;
  connects: number;
}

/** Options of a device session. */
export interface DeviceSessionOptions {
  connector: TransportConnector;
  /** Per-call timeout once the request is on the wire (default 5000 ms). */
  callTimeoutMs?: number;
  helloTimeoutMs?: number;
  /** Pause between failed connection attempts (default 100 ms). */
  reconnectIntervalMs?: number;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * The host side of one device on one port: hello, request ids, one request in flight unless the
 * device said `concurrent`, per-call timeout and abort, and reconnection after an unplug.
 * Owns its transport; `dispose()` closes it and stops reconnecting.
 */
export class DeviceSession {
  readonly label: string;
  private readonly options: Required<Omit<DeviceSessionOptions, 'connector'>> & { connector: TransportConnector };
  private readonly lifetime = new AbortController();
  private readonly lane = new CallLane();
  private readonly pending = new PendingRequests();
  private transport: LineTransport | undefined;
  private nextId = 1;
  private statusValue: SessionStatus = 'connecting';
  private helloValue: HelloResult | undefined;
  private loop: Promise<void> | undefined;
  readonly stats: SessionStats = { oversized: 0, invalidJson: 0, invalidFrame: 0, unmatchedResponse: 0, connects: 0 };
  private readonly statusListeners = new Listeners<SessionStatus>();
  private readonly eventListeners = new Listeners<EventFrame>();
  private readonly problemListeners = new Listeners<FrameProblem>();

  constructor(options: DeviceSessionOptions) {
    this.label = options.connector.label;
    this.options = {
      connector: options.connector,
      callTimeoutMs: options.callTimeoutMs ?? 5000,
      helloTimeoutMs: options.helloTimeoutMs ?? 2000,
      reconnectIntervalMs: options.reconnectIntervalMs ?? 100,
    };
  }

  get status(): SessionStatus {
    return this.statusValue;
  }

  /** The latest hello (kept while offline, so the device's tools stay known). */
  get hello(): HelloResult | undefined {
    return this.helloValue;
  }

  onStatus(listener: (status: SessionStatus) => void): () => void {
    return this.statusListeners.add(listener);
  }

  onEvent(listener: (event: EventFrame) => void): () => void {
    return this.eventListeners.add(listener);
  }

  onProblem(listener: (problem: FrameProblem) => void): () => void {
    return this.problemListeners.add(listener);
  }

  /** Starts connecting (and reconnecting, for the session's whole life). */
  start(): void {
    this.loop ??= this.connectLoop().catch((error: unknown) => {
      if (!this.lifetime.signal.aborted)
        this.reportProblem({ problem: 'connection', detail: `connect loop stopped: ${String(error)}` });
    });
  }

  /** Resolves with the hello once online; rejects on timeout, abort or dispose. */
  whenOnline(options: { timeoutMs: number; signal?: AbortSignal }): Promise<HelloResult> {
    if (this.statusValue === 'online' && this.helloValue) return Promise.resolve(this.helloValue);
    return new Promise((resolve, reject) => {
      const signals = [
        this.lifetime.signal,
        AbortSignal.timeout(options.timeoutMs),
        ...(options.signal ? [options.signal] : []),
      ];
      const signal = AbortSignal.any(signals);
      const stop = (): void => {
        remove();
        reject(
          new ToolError({
            reason: 'device_offline',
            detail: `${this.label}: not online within ${options.timeoutMs} ms`,
          }),
        );
      };
      const remove = this.onStatus((status) => {
        if (status !== 'online' || !this.helloValue) return;
        signal.removeEventListener('abort', stop);
        remove();
        resolve(this.helloValue);
      });
      signal.addEventListener('abort', stop, { once: true });
    });
  }

  /** Runs one device tool; rejects with a ToolError (`device_offline`, `timeout`, `aborted`, or the device's own). */
  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    // A session still making its first connection (the app just started) gets the hello's time to
    // come up; a device that was online and dropped ('offline') fails fast, as DESIGN.md asks.
    if (this.statusValue === 'connecting') {
      await this.whenOnline({
        timeoutMs: this.options.helloTimeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      }).catch(() => undefined);
    }
    const hello = this.requireOnline();
    if (!hello.tools.some((declared) => declared.name === tool)) {
      throw new ToolError({ reason: 'failed', detail: `${hello.device.id} has no action "${tool}"` });
    }
    const release = hello.concurrent ? () => undefined : await this.lane.acquire(options.signal);
    try {
      this.requireOnline();
      const response = await this.request(
        { op: 'call', tool, args },
        { timeoutMs: options.timeoutMs ?? this.options.callTimeoutMs, signal: options.signal },
      );
      if (response.ok) return response.result;
      throw mapDeviceError(response.error, hello.device.id);
    } finally {
      release();
    }
  }

  /** Stops reconnecting, fails what is pending, closes the port. */
  async dispose(): Promise<void> {
    if (this.statusValue === 'closed') return;
    this.lifetime.abort(new ToolError({ reason: 'device_offline', detail: `${this.label}: session closed` }));
    this.setStatus('closed');
    this.failEverything('session closed');
    await this.transport?.close();
    await this.loop;
    this.statusListeners.clear();
    this.eventListeners.clear();
    this.problemListeners.clear();
  }

  private requireOnline(): HelloResult {
    if (this.statusValue !== 'online' || this.helloValue === undefined) {
      throw new ToolError({
        reason: 'device_offline',
        detail: `${this.helloValue?.device.id ?? this.label} is ${this.statusValue}`,
        hint: 'retry once the device is back',
      });
    }
    return this.helloValue;
  }

  private async request(
    body: RequestBody,
    options: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<ResponseFrame> {
    const transport = this.transport;
    if (transport === undefined || !transport.isOpen)
      throw new ToolError({ reason: 'device_offline', detail: `${this.label} is not open` });
    const id = this.nextId++;
    const frame = { ...body, id } as RequestFrame;
    const answer = this.pending.wait(id, {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      label: `${this.label} ${frame.op === 'call' ? frame.tool : frame.op}#${id}`,
    });
    transport.write(encodeFrame(frame)).catch((error: unknown) => {
      this.pending.fail(
        id,
        new ToolError({ reason: 'device_offline', detail: `${this.label}: write failed: ${String(error)}` }),
      );
    });
    return answer;
  }

  private async connectLoop(): Promise<void> {
    const signal = this.lifetime.signal;
    while (!signal.aborted) {
      await this.options.connector.waitUntilPresent(signal);
      let closed!: Promise<TransportClose>;
      let transport: LineTransport;
      try {
        let onClose!: (reason: TransportClose) => void;
        closed = new Promise((resolve) => (onClose = resolve));
        transport = await this.options.connector.open(
          {
            onLine: (line) => this.handleLine(line),
            onOversized: (bytes) => this.countProblem({ problem: 'oversized', detail: `${bytes} bytes` }),
            onClose: (reason) => {
              this.handleClose(reason);
              onClose(reason);
            },
          },
          signal,
        );
      } catch (error) {
        if (signal.aborted) return;
        await this.pause(`open failed: ${String(error)}`);
        continue;
      }
      this.transport = transport;
      if (signal.aborted) {
        await transport.close();
        return;
      }
      try {
        const response = await this.request({ op: 'hello' }, { timeoutMs: this.options.helloTimeoutMs, signal });
        const hello = response.ok ? helloResultSchema.safeParse(response.result) : undefined;
        if (!hello?.success) throw new Error(hello ? `bad hello: ${hello.error.issues[0]?.message}` : 'hello refused');
        this.helloValue = hello.data;
        this.stats.connects += 1;
        this.setStatus('online');
      } catch (error) {
        await transport.close();
        await closed;
        if (signal.aborted) return;
        await this.pause(`hello failed: ${String(error)}`);
        continue;
      }
      await closed;
    }
  }

  private async pause(detail: string): Promise<void> {
    this.reportProblem({ problem: 'connection', detail: `${this.label}: ${detail}` });
    try {
      await abortableDelay(this.options.reconnectIntervalMs, this.lifetime.signal);
    } catch {
      // Disposed while pausing: the loop checks the lifetime signal and ends.
    }
  }

  private handleClose(reason: TransportClose): void {
    this.transport = undefined;
    this.failEverything(reason.disconnected ? `port lost${reason.detail ? ` (${reason.detail})` : ''}` : 'port closed');
    if (this.statusValue !== 'closed') this.setStatus(this.helloValue ? 'offline' : 'connecting');
  }

  private failEverything(why: string): void {
    const error = new ToolError({
      reason: 'device_offline',
      detail: `${this.helloValue?.device.id ?? this.label}: ${why}`,
      hint: 'retry once the device is back',
    });
    this.lane.failAll(error);
    this.pending.failAll(error);
  }

  private handleLine(line: string): void {
    const parsed = parseDeviceFrame(line);
    if (parsed.kind === 'response') {
      if (!this.pending.settle(parsed.frame))
        this.countProblem({ problem: 'unmatched_response', detail: `no request waits for id ${parsed.frame.id}` });
    } else if (parsed.kind === 'event') {
      this.eventListeners.emit(parsed.frame);
    } else {
      this.countProblem({ problem: parsed.problem, detail: parsed.detail });
    }
  }

  private countProblem(problem: FrameProblem): void {
    if (problem.problem === 'oversized') this.stats.oversized += 1;
    else if (problem.problem === 'invalid_json') this.stats.invalidJson += 1;
    else if (problem.problem === 'invalid_frame') this.stats.invalidFrame += 1;
    else if (problem.problem === 'unmatched_response') this.stats.unmatchedResponse += 1;
    this.reportProblem(problem);
  }

  private reportProblem(problem: FrameProblem): void {
    this.problemListeners.emit(problem);
  }

  private setStatus(status: SessionStatus): void {
    if (this.statusValue === status) return;
    this.statusValue = status;
    this.statusListeners.emit(status);
  }
}
