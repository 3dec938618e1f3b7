import { ToolError } from '../../core/tools/tool-error.ts';
import { encodeRequest, requestLimit } from '../protocol/encode-request.ts';
import { MAX_FRAME_BYTES, READY_EVENT } from '../protocol/frame-schema.ts';
import { checkHello } from '../protocol/check-hello.ts';
import type { HelloResult, RequestBody, ResponseFrame } from '../protocol/frame-schema.ts';
import { parseDeviceFrame } from '../protocol/parse-device-frame.ts';
import { abortableDelay } from '../transport/abortable-delay.ts';
import type { LineTransport, TransportClose, TransportConnector } from '../transport/line-transport.ts';
import { CallLane } from './call-lane.ts';
import { DeviceLinkBase } from '../links/device-link-base.ts';
import { mapDeviceError } from './map-device-error.ts';
import { PendingRequests } from './pending-requests.ts';
import { DeviceRestarts } from './device-restarts.ts';
import type { CallOptions, DeviceSessionOptions, FrameProblem } from '../links/session-types.ts';

/** An open port and the promise that settles when it closes. */
interface Connection {
  transport: LineTransport;
  closed: Promise<TransportClose>;
}

export type {
  CallOptions,
  DeviceSessionOptions,
  FrameProblem,
  SessionStats,
  SessionStatus,
} from '../links/session-types.ts';

/**
 * The host side of one device on one port: hello (asked again on the same port until answered,
 * and whenever the device says it restarted), request ids, one request in flight unless the
 * device said `concurrent`, its request size limit, per-call timeout and abort, and reconnection
 * after an unplug. Owns its transport; `dispose()` closes it and stops reconnecting.
 */
export class DeviceSession extends DeviceLinkBase {
  private readonly options: Required<Omit<DeviceSessionOptions, 'connector' | 'toolNameOwner'>> &
    Pick<DeviceSessionOptions, 'toolNameOwner'> & { connector: TransportConnector };
  private readonly lane = new CallLane();
  private readonly pending = new PendingRequests();
  private transport: LineTransport | undefined;
  private nextId = 1;
  private loop: Promise<void> | undefined;
  private readonly restarts = new DeviceRestarts();

  constructor(options: DeviceSessionOptions) {
    super(options.connector.label);
    this.options = {
      connector: options.connector,
      callTimeoutMs: options.callTimeoutMs ?? 5000,
      helloTimeoutMs: options.helloTimeoutMs ?? 2000,
      reconnectIntervalMs: options.reconnectIntervalMs ?? 100,
      ...(options.toolNameOwner ? { toolNameOwner: options.toolNameOwner } : {}),
    };
  }

  /** Starts connecting (and reconnecting, for the session's whole life). */
  start(): void {
    this.loop ??= this.connectLoop().catch((error: unknown) => {
      if (!this.lifetime.signal.aborted)
        this.reportProblem({ problem: 'connection', detail: `connect loop stopped: ${String(error)}` });
    });
  }

  /** Runs one device tool; rejects with a ToolError (`device_offline`, `timeout`, `aborted`, or the device's own). */
  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const hello = await this.helloFor(tool, { waitMs: this.options.helloTimeoutMs, signal: options.signal });
    const release = hello.concurrent ? () => undefined : await this.lane.acquire(options.signal);
    try {
      this.requireOnline();
      const response = await this.send(
        { op: 'call', tool, args },
        {
          timeoutMs: options.timeoutMs ?? this.options.callTimeoutMs,
          signal: options.signal,
          maxBytes: requestLimit(hello),
          onSent: options.onSent,
        },
      ).answer;
      if (response.ok) return response.result;
      throw mapDeviceError(response.error, hello.device.id);
    } finally {
      release();
    }
  }

  /** Stops reconnecting, fails what is pending, closes the port. */
  async dispose(): Promise<void> {
    if (this.status === 'closed') return;
    this.lifetime.abort(new ToolError({ reason: 'device_offline', detail: `${this.label}: session closed` }));
    this.setStatus('closed');
    this.failEverything('session closed');
    await this.transport?.close();
    await this.loop;
    this.clearListeners();
  }

  /** Writes one request; `answer` settles with its response. Throws (sending nothing) when the line is too long. */
  private send(
    body: RequestBody,
    options: { timeoutMs: number; signal?: AbortSignal | undefined; maxBytes?: number; onSent?: () => void },
  ): { id: number; answer: Promise<ResponseFrame> } {
    const transport = this.transport;
    if (transport === undefined || !transport.isOpen)
      throw new ToolError({ reason: 'device_offline', detail: `${this.label} is not open` });
    const id = this.nextId++;
    const line = encodeRequest(id, body);
    const bytes = Buffer.byteLength(line, 'utf8') - 1;
    const maxBytes = options.maxBytes ?? MAX_FRAME_BYTES;
    if (bytes > maxBytes) {
      throw new ToolError({
        reason: 'failed',
        detail: `${this.deviceId}: the request would be ${bytes} bytes, but the device reads at most ${maxBytes} (maxFrameBytes in its hello); nothing was sent`,
        hint: 'send shorter arguments',
      });
    }
    const label = `${this.label} ${body.op === 'call' ? body.tool : body.op}#${id}`;
    const answer = this.pending.wait(id, { timeoutMs: options.timeoutMs, signal: options.signal, label });
    options.onSent?.();
    transport.write(line).catch((error: unknown) => {
      this.pending.fail(
        id,
        new ToolError({ reason: 'device_offline', detail: `${this.label}: write failed: ${String(error)}` }),
      );
    });
    return { id, answer };
  }

  private async connectLoop(): Promise<void> {
    const signal = this.lifetime.signal;
    while (!signal.aborted) {
      await this.options.connector.waitUntilPresent(signal);
      const connection = await this.open(signal);
      if (connection !== undefined) await this.serve(connection);
    }
  }

  /** Opens the port; undefined (after a pause) when it cannot be opened now. */
  private async open(signal: AbortSignal): Promise<Connection | undefined> {
    let onClose!: (reason: TransportClose) => void;
    const closed = new Promise<TransportClose>((resolve) => (onClose = resolve));
    try {
      const transport = await this.options.connector.open(
        {
          onLine: (line) => this.handleLine(line),
          onOversized: (bytes) =>
            this.countProblem({
              problem: 'oversized',
              detail: `a line of ${bytes} bytes was dropped: longer than the ${MAX_FRAME_BYTES}-byte frame limit`,
            }),
          onClose: (reason) => {
            this.handleClose(reason);
            onClose(reason);
          },
        },
        signal,
      );
      return { transport, closed };
    } catch (error) {
      if (!signal.aborted) await this.pause(`open failed: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * Greets the device on an open port, and again each time it says `ready` (it restarted while the
   * port stayed open: its calls in flight are lost), until the port closes.
   */
  private async serve({ transport, closed }: Connection): Promise<void> {
    this.transport = transport;
    this.restarts.reset();
    void closed.then(() => this.restarts.closed());
    if (this.lifetime.signal.aborted) {
      await transport.close();
      return;
    }
    for (;;) {
      const hello = await this.greet(transport);
      if (hello === undefined) break;
      this.goOnline(hello);
      if (!(await this.restarts.nextRestart())) break;
      this.failEverything('it restarted (said ready), so calls in flight were lost');
      this.setStatus('offline');
    }
    await closed;
  }

  /**
   * Asks hello until the device answers with a valid one, on the same port: a board that resets
   * when its port opens (an Arduino's DTR) misses the first hello, and re-opening would reset it
   * again. A `ready` from the device asks again at once. Undefined once the port closed or the session ended.
   */
  private async greet(transport: LineTransport): Promise<HelloResult | undefined> {
    const signal = this.lifetime.signal;
    while (!signal.aborted && this.transport === transport) {
      const woken = new AbortController();
      const stopWaiting = this.restarts.onReady(() => woken.abort());
      let sentId: number | undefined;
      try {
        const request = this.send(
          { op: 'hello' },
          { timeoutMs: this.options.helloTimeoutMs, signal: AbortSignal.any([signal, woken.signal]) },
        );
        sentId = request.id;
        const response = await request.answer;
        if (!response.ok) {
          await this.pause(`hello failed: ${JSON.stringify(response.error)}`);
          continue;
        }
        const hello = checkHello(response.result, this.options.toolNameOwner);
        if (hello.ok) return hello.hello;
        this.reportProblem({ problem: 'hello_refused', detail: `hello refused: ${hello.reason}` });
        await this.pause(undefined);
      } catch (error) {
        // A port that says it is closed will not answer: wait for its close (serialport reports it a
        // moment later) instead of asking again, which would never give the close a chance to arrive.
        if (signal.aborted || this.transport !== transport || !transport.isOpen) return undefined;
        if (sentId !== undefined) this.restarts.asked(sentId);
        // Woken by `ready`: the device just started, so ask again at once without reporting anything.
        if (!woken.signal.aborted)
          this.reportProblem({ problem: 'connection', detail: `${this.label}: ${String(error)}; asking hello again` });
      } finally {
        stopWaiting();
      }
    }
    return undefined;
  }

  /** Waits before the next attempt, reporting `detail` as a connection problem first (unless already reported). */
  private async pause(detail: string | undefined): Promise<void> {
    if (detail !== undefined) this.reportProblem({ problem: 'connection', detail: `${this.label}: ${detail}` });
    try {
      await abortableDelay(this.options.reconnectIntervalMs, this.lifetime.signal);
    } catch {
      // Disposed while pausing: the loop checks the lifetime signal and ends.
    }
  }

  private handleClose(reason: TransportClose): void {
    this.transport = undefined;
    this.failEverything(reason.disconnected ? `port lost${reason.detail ? ` (${reason.detail})` : ''}` : 'port closed');
    if (this.status !== 'closed') this.setStatus(this.hello ? 'offline' : 'connecting');
  }

  private failEverything(why: string): void {
    const error = new ToolError({
      reason: 'device_offline',
      detail: `${this.deviceId}: ${why}`,
      hint: 'retry once the device is back',
    });
    this.lane.failAll(error);
    this.pending.failAll(error);
  }

  private handleLine(line: string): void {
    const parsed = parseDeviceFrame(line);
    if (parsed.kind === 'response') {
      // The late answer of a call its caller stopped (Stop in the app) is expected: the device did what it was asked.
      if (
        this.pending.settle(parsed.frame) ||
        this.pending.answersStopped(parsed.frame.id) ||
        this.restarts.isLateHello(parsed.frame.id)
      )
        return;
      this.countProblem({ problem: 'unmatched_response', detail: `no request waits for id ${parsed.frame.id}` });
    } else if (parsed.kind === 'event' && parsed.frame.event === READY_EVENT) {
      this.restarts.ready();
    } else if (parsed.kind === 'event') {
      this.reportEvent(parsed.frame);
    } else {
      this.countProblem({ problem: parsed.problem, detail: parsed.detail });
      // An answer that cannot be read (nested too deep, broken JSON after its id) fails its call now.
      if (parsed.id !== undefined)
        this.pending.settle({
          id: parsed.id,
          ok: false,
          error: { reason: 'failed', detail: `its answer could not be read (${parsed.detail})` },
        });
    }
  }

  private countProblem(problem: FrameProblem): void {
    if (problem.problem === 'oversized') this.stats.oversized += 1;
    else if (problem.problem === 'invalid_json') this.stats.invalidJson += 1;
    else if (problem.problem === 'invalid_frame') this.stats.invalidFrame += 1;
    else if (problem.problem === 'unmatched_response') this.stats.unmatchedResponse += 1;
    this.reportProblem(problem);
  }
}
