import { encodeFrame } from '../protocol/encode-frame.ts';
import type { DeviceIdentity, HelloResult } from '../protocol/frame-schema.ts';
import { jsonDialect } from './firmware-dialect.ts';
import type { FirmwareDialect } from './firmware-dialect.ts';
import { abortableDelay } from '../transport/abortable-delay.ts';
import type { LineTransport, LineTransportHandlers } from '../transport/line-transport.ts';
import { Emitter } from '../../core/events/emitter.ts';
import { DeviceFailure } from './simulated-device-model.ts';
import type { SimulatedDeviceModel } from './simulated-device-model.ts';

/** Misbehaviour switched on at run time, for tests and demos. */
export interface SimulatorFaults {
  /** Send a line of binary noise before every answer. */
  garbageBefore: boolean;
  /** Send a line over the frame limit before every answer. */
  oversizedBefore: boolean;
  /** Read requests but never answer them. */
  silent: boolean;
  /** Added to the latency of every call. */
  extraLatencyMs: number;
}

/** The longest request line a simulated device reads (stated in its hello); far below the host's own limit. */
export const SIMULATED_MAX_FRAME_BYTES = 4096;

// One counter for every simulated device in the process, so logs of different devices interleave comparably.
let logSequence = 0;

/** One entry of the firmware's own log, in the order it happened (`seq`, shared by all devices), to prove what the host did. */
export interface FirmwareLogEntry {
  seq: number;
  type: 'start' | 'end';
  requestId: number;
  tool: string;
}

/**
 * The firmware of one simulated device speaking the Home Agent serial protocol over a line
 * transport. It works on each request as it arrives, without serialising, so its log shows how
 * many requests the host really had in flight. Owns its current transport.
 */
export class SimulatedFirmware {
  private identityValue: DeviceIdentity;
  readonly model: SimulatedDeviceModel;
  readonly maxFrameBytes: number;
  latencyMs: number;
  readonly faults: SimulatorFaults = { garbageBefore: false, oversizedBefore: false, silent: false, extraLatencyMs: 0 };
  readonly log: FirmwareLogEntry[] = [];
  readonly stats = { badRequests: 0, calls: 0 };
  private transport: LineTransport | undefined;
  private connection = new AbortController();
  private readonly logListeners = new Emitter<FirmwareLogEntry>({ name: 'simulated firmware log' });
  private gate: Promise<void> | undefined;

  private readonly dialect: FirmwareDialect;

  constructor(options: {
    id: string;
    model: SimulatedDeviceModel;
    latencyMs: number;
    firmwareVersion?: string;
    dialect?: FirmwareDialect;
    /** The longest request line it reads (default SIMULATED_MAX_FRAME_BYTES). */
    maxFrameBytes?: number;
  }) {
    this.model = options.model;
    this.maxFrameBytes = options.maxFrameBytes ?? SIMULATED_MAX_FRAME_BYTES;
    this.dialect = options.dialect ?? jsonDialect;
    this.latencyMs = options.latencyMs;
    this.identityValue = {
      id: options.id,
      kind: options.model.kind,
      model: options.model.model,
      firmware: options.firmwareVersion ?? options.model.firmware,
    };
    options.model.bindEvents?.((event, data) => this.sendEvent(event, data));
  }

  /** Who the device says it is in hello. */
  get identity(): DeviceIdentity {
    return this.identityValue;
  }

  /** Installs another firmware version: the next hello reports it (to test identity changes). */
  reflash(firmwareVersion: string): void {
    this.identityValue = { ...this.identityValue, firmware: firmwareVersion };
  }

  get connected(): boolean {
    return this.transport?.isOpen === true;
  }

  /**
   * Serves the transport that `open` returns (the device's end of a port); replaces any previous
   * one. Says `ready` first, like a board starting up (lost when the host has not opened its end yet).
   */
  async connect(open: (handlers: LineTransportHandlers) => Promise<LineTransport> | LineTransport): Promise<void> {
    await this.disconnect();
    const connection = new AbortController();
    this.connection = connection;
    const transport = await open({
      onLine: (line) => void this.handleLine(line, connection.signal),
      onOversized: () => {
        this.stats.badRequests += 1;
      },
      onClose: () => {
        connection.abort();
        if (this.transport === transport) this.transport = undefined;
      },
    });
    this.transport = transport;
    const ready = this.dialect.ready?.();
    if (ready !== undefined) this.write(ready);
  }

  /** Closes the device's end (work in progress is dropped, as on a power cut). */
  async disconnect(): Promise<void> {
    this.connection.abort();
    const transport = this.transport;
    this.transport = undefined;
    await transport?.close();
  }

  /** Called for every log entry as it is written. */
  onLog(listener: (entry: FirmwareLogEntry) => void): () => void {
    return this.logListeners.subscribe(listener);
  }

  /** Holds every call after its start until the returned function is called (to prove overlap without timing). */
  hold(): () => void {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.gate = gate;
    return () => {
      if (this.gate === gate) this.gate = undefined;
      release();
    };
  }

  /** Writes raw bytes on the wire (garbage, half frames), for tests. */
  async sendRaw(text: string): Promise<void> {
    await this.transport?.write(text);
  }

  /** Sends an unsolicited event frame if connected. */
  sendEvent(event: string, data: Record<string, unknown>): void {
    this.write(encodeFrame({ event, data }));
  }

  private hello(): HelloResult {
    return {
      device: this.identity,
      tools: this.model.tools,
      concurrent: this.model.concurrent === true,
      maxFrameBytes: this.maxFrameBytes,
    };
  }

  private async handleLine(line: string, signal: AbortSignal): Promise<void> {
    const request = this.dialect.decode(line, this.maxFrameBytes);
    if (request.type === 'invalid') {
      this.stats.badRequests += 1;
      if (request.reply !== undefined) await this.answer(request.reply, signal);
      return;
    }
    if (request.type === 'hello') return this.answer(this.dialect.hello(request.id, this.hello()), signal);
    this.stats.calls += 1;
    this.record({ seq: ++logSequence, type: 'start', requestId: request.id, tool: request.tool });
    try {
      await abortableDelay(this.latencyMs + this.faults.extraLatencyMs, signal);
      if (this.gate) await waitForGate(this.gate, signal);
    } catch {
      // The port went away mid-call: like real firmware, the work is simply lost.
      return;
    }
    let answer: string;
    try {
      if (!this.model.tools.some((tool) => tool.name === request.tool))
        throw new DeviceFailure('not_found', `no action ${request.tool}`);
      answer = this.dialect.result(request, this.model.handle(request.tool, request.args));
    } catch (error) {
      answer = this.dialect.failure(
        request,
        error instanceof DeviceFailure ? error : new DeviceFailure('failed', String(error)),
      );
    }
    this.record({ seq: ++logSequence, type: 'end', requestId: request.id, tool: request.tool });
    await this.answer(answer, signal);
  }

  private record(entry: FirmwareLogEntry): void {
    this.log.push(entry);
    this.logListeners.emit(entry);
  }

  private async answer(text: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted || this.faults.silent) return;
    if (this.faults.garbageBefore) this.write('\u0000\u00ff{"id":garbage\u0007]]\n');
    if (this.faults.oversizedBefore) this.write(`{"id":0,"ok":true,"result":"${'x'.repeat(20_000)}"}\n`);
    this.write(text);
  }

  private write(text: string): void {
    this.transport?.write(text).catch(() => {
      // Writing to a port that just closed loses the bytes, as on a real wire; the host times out or sees the close.
    });
  }
}

/** Resolves when the gate opens, rejects when the connection drops; leaves no listener behind. */
function waitForGate(gate: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void gate.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
