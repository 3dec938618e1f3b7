import type ModbusRTU from 'modbus-serial';
import { ToolError } from '../../core/tools/tool-error.ts';
import { CallLane } from '../session/call-lane.ts';
import { Emitter } from '../../core/events/emitter.ts';
import { abortableDelay } from '../transport/abortable-delay.ts';
import { waitForPath } from '../transport/port-path.ts';
import type { TransportClose } from '../transport/line-transport.ts';
import { describeBus, type ModbusBusSettings } from './modbus-bus-settings.ts';
import { damagedReply, modbusFailure } from './modbus-failure.ts';
import { ModbusRtuPort } from './modbus-rtu-port.ts';
import type { ModbusTable } from './plan-reads.ts';

/** One Modbus request: read `count` values of a table, or write one coil or holding register. */
export type ModbusRequest =
  | { kind: 'read'; table: ModbusTable; address: number; count: number }
  | { kind: 'write_coil'; address: number; on: boolean }
  | { kind: 'write_register'; address: number; value: number };

/** `idle`: nobody uses the bus, its port is closed; `waiting`: in use, port absent or opening; `open`. */
export type BusState = 'idle' | 'waiting' | 'open';

/** Options of one transaction. */
export interface TransactionOptions {
  unit: number;
  request: ModbusRequest;
  /** How long to wait for the reply once the request is on the wire. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called when the reply was damaged (bad CRC, wrong length): the unit counts it as a frame problem. */
  onFrameProblem?: (detail: string) => void;
  /** Called when the request is handed to the port: from then on, the unit may act on it. */
  onSent?: () => void;
}

/** Options of a bus. */
export interface ModbusBusOptions {
  path: string;
  settings: ModbusBusSettings;
  /** How often to look for an absent port, and to check that an open one is still there (default 100 ms). */
  reconnectIntervalMs?: number;
  /** How long opening the port may take (default 2000 ms). */
  openTimeoutMs?: number;
}

/**
 * One serial port with one or more Modbus units on it: the physical lane. One transaction at a
 * time, in arrival order, whichever unit it is for (the lane only queues; the batch's mode is
 * decided as for any tool). The port is opened while anyone uses the bus, re-opened after an
 * unplug, and closed when the last user lets go. Losing the port fails the transaction in flight
 * and every queued one with `device_offline`.
 */
export class ModbusBus {
  readonly path: string;
  readonly settings: ModbusBusSettings;
  private readonly lane = new CallLane();
  private readonly stateListeners = new Emitter<BusState>({ name: 'Modbus bus state' });
  private readonly inFlight = new Set<(error: ToolError) => void>();
  private readonly reconnectIntervalMs: number;
  private readonly openTimeoutMs: number;
  private users = 0;
  private lifetime: AbortController | undefined;
  private running: Promise<void> = Promise.resolve();
  private client: ModbusRTU | undefined;
  private port: ModbusRtuPort | undefined;
  private stateValue: BusState = 'idle';

  constructor(options: ModbusBusOptions) {
    this.path = options.path;
    this.settings = options.settings;
    this.reconnectIntervalMs = options.reconnectIntervalMs ?? 100;
    this.openTimeoutMs = options.openTimeoutMs ?? 2000;
  }

  get state(): BusState {
    return this.stateValue;
  }

  onState(listener: (state: BusState) => void): () => void {
    return this.stateListeners.subscribe(listener);
  }

  /** Starts using the bus (the first user opens the port); the returned function lets go (the last closes it). */
  use(): () => Promise<void> {
    this.users += 1;
    if (this.users === 1) {
      const lifetime = new AbortController();
      this.lifetime = lifetime;
      this.setState('waiting');
      // A bus let go and taken again waits for the old port to close before opening it anew.
      this.running = this.running.then(() => this.run(lifetime.signal));
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users > 0) return;
      this.lifetime?.abort();
      this.failEverything('the bus was closed');
      await this.running;
    };
  }

  /** Resolves once the bus's state passes `test` (at once if it does now); rejects when `signal` aborts first. */
  whenState(test: (state: BusState) => boolean, signal: AbortSignal): Promise<void> {
    if (test(this.stateValue)) return Promise.resolve();
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const stop = (): void => {
        remove();
        reject(signal.reason);
      };
      const remove = this.onState((state) => {
        if (!test(state)) return;
        signal.removeEventListener('abort', stop);
        remove();
        resolve();
      });
      signal.addEventListener('abort', stop, { once: true });
    });
  }

  /**
   * Runs one request for `unit` when the lane is free. Resolves with the values read (numbers for
   * registers, booleans for bits) or nothing for a write; rejects with a ToolError. An abort while
   * queued leaves the queue; an abort once sent answers the caller at once, but the lane stays taken
   * until the reply or its timeout, so the next request never meets a late answer on the wire.
   */
  async transaction(options: TransactionOptions): Promise<number[] | boolean[] | undefined> {
    const release = await this.lane.acquire(options.signal);
    const client = this.client;
    const who = `unit ${options.unit} on ${this.path}`;
    const what = describeRequest(options.request);
    if (client === undefined || this.stateValue !== 'open') {
      release();
      throw offline(`${who}: the port is not open`);
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (settle: () => void): void => {
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const onAbort = (): void =>
        finish(() =>
          reject(
            new ToolError({
              reason: 'aborted',
              detail: `${who}: aborted after ${what} was sent${options.request.kind === 'read' ? '' : '; it may have acted'}`,
            }),
          ),
        );
      const onLost = (error: ToolError): void => {
        this.inFlight.delete(onLost);
        release();
        finish(() => reject(error));
      };
      this.inFlight.add(onLost);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      client.setTimeout(options.timeoutMs);
      options.onSent?.();
      const port = this.port;
      send(client, options.unit, options.request, (error, values) => {
        this.inFlight.delete(onLost);
        release();
        if (error !== null && /Port Not Open/.test(String((error as Error).message)))
          return finish(() => reject(offline(`${who}: the port closed`)));
        const request = { who, what, timeoutMs: options.timeoutMs, changes: options.request.kind !== 'read' };
        // A reply the port found inconsistent is damaged, whatever the library made of it (a CRC error first).
        const inconsistent = port?.replyProblem;
        const crc = error !== null && /CRC error/.test(String((error as Error).message));
        if (error === null && inconsistent === undefined) return finish(() => resolve(values));
        const failure =
          inconsistent !== undefined && !crc ? damagedReply(request, inconsistent) : modbusFailure(error, request);
        if (failure.frameProblem !== undefined) options.onFrameProblem?.(`${who}: ${failure.frameProblem}`);
        finish(() => reject(failure.error));
      });
    });
  }

  private async run(signal: AbortSignal): Promise<void> {
    // modbus-serial (and the serial stack under it) is loaded by the first bus, not by every command.
    const { default: ModbusClient } = await import('modbus-serial');
    while (!signal.aborted) {
      try {
        await this.waitForPort(signal);
      } catch {
        // Let go while the port was absent: nothing is open.
        break;
      }
      const port = new ModbusRtuPort({
        path: this.path,
        settings: this.settings,
        watchPathMs: this.reconnectIntervalMs,
      });
      const closed = new Promise<TransportClose>((resolve) => port.once('close', resolve));
      const client = new ModbusClient(port);
      try {
        await this.open(client, signal);
      } catch {
        // Waits for the port to be really closed (an open still under way finishes first), so the
        // next attempt never meets this one's lock.
        await new Promise<void>((resolve) => port.close(resolve));
        if (signal.aborted) break;
        await abortableDelay(this.reconnectIntervalMs, signal).catch(() => undefined);
        continue;
      }
      if (signal.aborted) {
        await new Promise<void>((resolve) => port.close(resolve));
        break;
      }
      this.client = client;
      this.port = port;
      this.setState('open');
      const onAbort = (): void => port.close();
      signal.addEventListener('abort', onAbort, { once: true });
      const reason = await closed;
      signal.removeEventListener('abort', onAbort);
      this.client = undefined;
      this.port = undefined;
      this.failEverything(
        reason.disconnected ? `port lost${reason.detail ? ` (${reason.detail})` : ''}` : 'port closed',
      );
      if (!signal.aborted) this.setState('waiting');
    }
    this.client = undefined;
    this.port = undefined;
    if (this.users === 0) this.setState('idle');
  }

  private open(client: ModbusRTU, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`opening ${this.path} timed out after ${this.openTimeoutMs} ms`)),
        this.openTimeoutMs,
      );
      const onAbort = (): void => done(new Error('aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      let finished = false;
      function done(error: Error | null): void {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      }
      client.open((error: Error | null) => done(error ?? null));
    });
  }

  private async waitForPort(signal: AbortSignal): Promise<void> {
    await waitForPath({ path: this.path, intervalMs: this.reconnectIntervalMs, signal });
  }

  private failEverything(why: string): void {
    const error = offline(`${this.path} (Modbus ${describeBus(this.settings)}): ${why}`);
    for (const fail of [...this.inFlight]) fail(error);
    this.lane.failAll(error);
  }

  private setState(state: BusState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    this.stateListeners.emit(state);
  }
}

function offline(detail: string): ToolError {
  return new ToolError({ reason: 'device_offline', detail, hint: 'retry once the device is back' });
}

/** `read input registers 0–1`, `write coil 3`, for messages. */
function describeRequest(request: ModbusRequest): string {
  if (request.kind === 'write_coil') return `write coil ${request.address}`;
  if (request.kind === 'write_register') return `write holding register ${request.address}`;
  const table = {
    coil: 'coils',
    discrete_input: 'discrete inputs',
    holding: 'holding registers',
    input: 'input registers',
  }[request.table];
  return `read ${table} ${request.address}${request.count > 1 ? `–${request.address + request.count - 1}` : ''}`;
}

type Reply = (error: Error | null, values?: number[] | boolean[]) => void;

function send(client: ModbusRTU, unit: number, request: ModbusRequest, reply: Reply): void {
  const bits = (error: Error | null, result?: { data: boolean[] }): void =>
    error ? reply(error) : reply(null, (result?.data ?? []).slice(0, request.kind === 'read' ? request.count : 0));
  const registers = (error: Error | null, result?: { data: number[] }): void =>
    error ? reply(error) : reply(null, result?.data ?? []);
  const written = (error: Error | null): void => reply(error);
  switch (request.kind) {
    case 'read':
      if (request.table === 'coil') return client.writeFC1(unit, request.address, request.count, bits);
      if (request.table === 'discrete_input') return client.writeFC2(unit, request.address, request.count, bits);
      if (request.table === 'holding') return client.writeFC3(unit, request.address, request.count, registers);
      return client.writeFC4(unit, request.address, request.count, registers);
    case 'write_coil':
      return client.writeFC5(unit, request.address, request.on, written);
    case 'write_register':
      return client.writeFC6(unit, request.address, request.value, written);
  }
}
