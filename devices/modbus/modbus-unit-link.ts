import { ToolError } from '../../core/tools/tool-error.ts';
import type { DeviceTool } from '../protocol/frame-schema.ts';
import { DeviceLinkBase } from '../links/device-link-base.ts';
import type { CallOptions } from '../links/session-types.ts';
import { abortableDelay } from '../transport/abortable-delay.ts';
import { decodeSensor } from './decode-sensor.ts';
import type { ModbusBus } from './modbus-bus.ts';
import { modbusIdentity } from './modbus-identity.ts';
import type { ModbusProfile, ModbusSensor, ModbusSwitch } from './modbus-profile-schema.ts';
import { modbusTools, readItems, sensorItem, switchReadBack } from './modbus-tools.ts';
import { planReads, valuesOf, type ReadItem } from './plan-reads.ts';

/** Options of a Modbus unit. */
export interface ModbusUnitLinkOptions {
  bus: ModbusBus;
  unit: number;
  profile: ModbusProfile;
  /** How long to wait for each reply (default 1000 ms). */
  transactionTimeoutMs?: number;
  /** How long a call made while the first connection is still coming up waits for it (default 2000 ms). */
  helloTimeoutMs?: number;
  /** Pause before reading the identity again of a unit that did not answer (default 2000 ms). */
  probeIntervalMs?: number;
}

/** What every transaction of one call carries: its timeout, its signal, and who hears it was sent. */
interface TransactionSending {
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onSent: (() => void) | undefined;
}

/**
 * One Modbus device: a unit id on a bus, described by a profile. It has no hello: once the bus's
 * port is open it reads the profile's `identify` registers (or, without them, its first read) to
 * know the unit answers, and declares the profile's tools. `read` reads every sensor in as few
 * transactions as the register map allows; `set` writes one switch and reads it back when the
 * profile says `verify`. Transactions queue on the bus, shared with the other units on it. Made, it
 * holds the bus (whose port opens); `dispose()` lets go.
 */
export class ModbusUnitLink extends DeviceLinkBase {
  /** What the last identity read found (identify values, or the first read): shown when pairing. */
  lastReading: Record<string, unknown> = {};
  private readonly options: Required<ModbusUnitLinkOptions>;
  private readonly tools: DeviceTool[];
  private readonly releaseBus: () => Promise<void>;
  private loop: Promise<void> | undefined;
  /** The last identity read got an answer that was no identity (an exception, a damaged reply): the unit is there. */
  private answeredWrongly = false;

  constructor(options: ModbusUnitLinkOptions) {
    super(`unit ${options.unit} on ${options.bus.path}`);
    this.options = { transactionTimeoutMs: 1000, helloTimeoutMs: 2000, probeIntervalMs: 2000, ...options };
    this.tools = modbusTools(options.profile);
    // Claimed from the start, so a second unit made for the same port meets this bus, not a new one.
    this.releaseBus = options.bus.use();
  }

  start(): void {
    if (this.loop || this.status === 'closed') return;
    this.loop = this.connectLoop();
  }

  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    await this.helloFor(tool, { waitMs: this.options.helloTimeoutMs, signal: options.signal });
    const timeoutMs = options.timeoutMs ?? this.options.transactionTimeoutMs;
    const sending = { timeoutMs, signal: options.signal, onSent: options.onSent };
    if (tool === 'read') return this.read(readItems(this.options.profile), sending);
    return this.set(args, sending);
  }

  async dispose(): Promise<void> {
    if (this.status === 'closed') return;
    this.lifetime.abort();
    this.setStatus('closed');
    await this.releaseBus();
    await this.loop;
    this.clearListeners();
  }

  /**
   * A unit that answered its identity read with an exception or a damaged reply is there: the wait
   * names what it answered. One that never answers is most often at other bus settings (or another unit id).
   */
  protected override notOnlineHint(): string | undefined {
    if (this.answeredWrongly) return super.notOnlineHint();
    return `does unit ${this.options.unit} answer at these bus settings?`;
  }

  private async connectLoop(): Promise<void> {
    const { bus } = this.options;
    const signal = this.lifetime.signal;
    while (!signal.aborted) {
      try {
        await bus.whenState((state) => state === 'open', signal);
      } catch {
        return;
      }
      try {
        const identified = await this.probe(signal);
        this.answeredWrongly = false;
        this.goOnline({
          device: modbusIdentity({
            profile: this.options.profile,
            path: bus.path,
            unit: this.options.unit,
            identified,
          }),
          tools: this.tools,
          concurrent: false,
        });
      } catch (error) {
        if (signal.aborted) return;
        this.answeredWrongly = ToolError.isInstance(error) && error.reason === 'failed';
        this.reportProblem({
          problem: 'connection',
          detail: `${this.label}: reading its identity failed: ${ToolError.isInstance(error) ? error.detail : String(error)}`,
        });
        await abortableDelay(this.options.probeIntervalMs, signal).catch(() => undefined);
        continue;
      }
      try {
        await bus.whenState((state) => state !== 'open', signal);
      } catch {
        return;
      }
      this.setStatus('offline');
    }
  }

  /** Reads what tells the unit apart (its `identify` registers) or, without any, its first read; returns the identify values. */
  private async probe(signal: AbortSignal): Promise<Record<string, unknown>> {
    const { profile } = this.options;
    const options = { timeoutMs: this.options.transactionTimeoutMs, signal, onSent: undefined };
    if (profile.identify.length > 0) {
      this.lastReading = await this.readSensors(profile.identify, options);
      return this.lastReading;
    }
    const first = planReads(readItems(profile))[0];
    this.lastReading = first ? await this.read(first.items, options) : {};
    return {};
  }

  private async readSensors(
    sensors: readonly ModbusSensor[],
    options: TransactionSending,
  ): Promise<Record<string, unknown>> {
    const values = await this.readValues(sensors.map(sensorItem), options);
    return Object.fromEntries(
      sensors.map((sensor) => [sensor.name, decodeSensor(sensor, values.get(sensor.name) as number[])]),
    );
  }

  /** Reads `items` in as few transactions as possible; the result is keyed in profile order. */
  private async read(items: readonly ReadItem[], options: TransactionSending): Promise<Record<string, unknown>> {
    const values = await this.readValues(items, options);
    const { profile } = this.options;
    const result: Record<string, unknown> = {};
    for (const sensor of profile.sensors) {
      const raw = values.get(sensor.name);
      if (raw !== undefined) result[sensor.name] = decodeSensor(sensor, raw as number[]);
    }
    for (const entry of profile.switches) {
      const raw = values.get(entry.name);
      if (raw !== undefined) result[entry.name] = switchState(entry, raw[0]);
    }
    return result;
  }

  private async readValues(
    items: readonly ReadItem[],
    options: TransactionSending,
  ): Promise<Map<string, (number | boolean)[]>> {
    const values = new Map<string, (number | boolean)[]>();
    for (const transaction of planReads(items)) {
      const read = await this.transaction(
        { kind: 'read', table: transaction.table, address: transaction.address, count: transaction.count },
        options,
      );
      for (const item of transaction.items)
        values.set(item.key, valuesOf<number | boolean>(transaction, item, read ?? []));
    }
    return values;
  }

  private async set(
    args: Record<string, unknown>,
    options: TransactionSending,
  ): Promise<{ channel: number; on: boolean }> {
    const { switches } = this.options.profile;
    const channel = args.channel ?? (switches.length === 1 ? switches[0]!.channel : undefined);
    if (channel === undefined)
      throw new ToolError({ reason: 'required', field: 'channel', detail: `${this.deviceId}: channel is required` });
    const target = switches.find((entry) => entry.channel === channel);
    if (target === undefined)
      throw new ToolError({
        reason: 'type',
        field: 'channel',
        detail: `${this.deviceId}: channel must be one of ${switches.map((entry) => entry.channel).join(', ')}, got ${JSON.stringify(channel)}`,
      });
    if (typeof args.on !== 'boolean')
      throw new ToolError({ reason: 'type', field: 'on', detail: `${this.deviceId}: on must be true or false` });
    const on = args.on;
    await this.transaction(
      target.write_type === 'coil'
        ? { kind: 'write_coil', address: target.address, on }
        : { kind: 'write_register', address: target.address, value: on ? target.command_on : target.command_off },
      options,
    );
    const readBack = switchReadBack(target);
    if (readBack) {
      const [value] = (await this.transaction(
        { kind: 'read', table: readBack.table, address: readBack.address, count: 1 },
        options,
      )) ?? [undefined];
      const state = switchState(target, value);
      if (state !== on)
        throw new ToolError({
          reason: 'failed',
          detail: `${this.deviceId}: channel ${target.channel} reads ${state === null ? `an unknown state (${String(value)})` : state ? 'on' : 'off'} after switching it ${on ? 'on' : 'off'}`,
          hint: 'the device did not take the command: read it, and check the device before trying again',
        });
    }
    return { channel: target.channel, on };
  }

  private transaction(
    request: Parameters<ModbusBus['transaction']>[0]['request'],
    options: TransactionSending,
  ): Promise<number[] | boolean[] | undefined> {
    return this.options.bus.transaction({
      unit: this.options.unit,
      request,
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onSent ? { onSent: options.onSent } : {}),
      onFrameProblem: (detail) => {
        this.stats.invalidFrame += 1;
        this.reportProblem({ problem: 'invalid_frame', detail });
      },
    });
  }
}

/** A switch's state from the value read back: a bit as is; a register compared with its on and off values (null: neither). */
function switchState(entry: ModbusSwitch, value: number | boolean | undefined): boolean | null {
  if (typeof value === 'boolean') return value;
  const readBack = switchReadBack(entry);
  if (value === undefined || readBack === undefined) return null;
  if (value === readBack.stateOn) return true;
  if (value === readBack.stateOff) return false;
  return null;
}
