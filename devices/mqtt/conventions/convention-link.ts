import { ToolError } from '../../../core/tools/tool-error.ts';
import { DeviceLinkBase } from '../../links/device-link-base.ts';
import type { CallOptions, LinkDefaults } from '../../links/session-types.ts';
import { CallLane } from '../../session/call-lane.ts';
import { MQTT_REFUSAL, MqttPublishError, type MqttBroker, type MqttPublishAck } from '../mqtt-broker.ts';
import { nextCompletion, PUBLISHED, type Completion, type CompletionEvent } from './call-completion.ts';
import type { ConventionCatalogue } from './convention-catalogue.ts';
import type { ConventionCall, ConventionDevice, ConventionState } from './convention-device.ts';
import { publishFailure, refusal } from './publish-failure.ts';
import { sameWiring, type LinkWiring } from '../../links/link-wiring.ts';
import { deadlineSignal } from '../../../core/text/deadline-signal.ts';

/** A published call waiting for its completion. */
interface PendingCall {
  completion: Completion;
  expect: (ConventionCall & { kind: 'publish' })['expect'];
  /** Completed, timed out or failed: nothing moves it any more. */
  finished: boolean;
  settle(completion: Completion): void;
  fail(error: ToolError): void;
}

/**
 * The link to one device of a field's convention, through the host's broker connection. Online while
 * the broker is connected, its family still announces it, and its availability topics say so (as its
 * `availabilityMode` combines them). A call publishes exactly what the device's convention says, one
 * at a time, and completes by `nextCompletion`: on the state that confirms it, on the broker's
 * acknowledgement when the device reports no state (`confirmed: false`), else `timeout` (outcome
 * unknown: it was sent). A publish the broker refuses is `unauthorized` (0x87) or `failed`, and was
 * not sent; the device going offline mid-call ends it `device_offline`.
 */
export class ConventionLink extends DeviceLinkBase {
  private readonly lane = new CallLane();
  private readonly pending = new Set<PendingCall>();
  private readonly availability = new Map<string, boolean>();
  private latestAvailability: boolean | undefined;
  private lastState: { state: ConventionState; receivedAt: Date } | undefined;
  private device: ConventionDevice | undefined;
  /** The wiring of the announcement it last came online with (kept while offline, as its hello is). */
  private wiringValue: LinkWiring | undefined;
  private unsubscribe: (() => void)[] = [];
  private readonly stopWatching: (() => void)[] = [];
  private started = false;

  constructor(
    private readonly options: {
      path: string;
      catalogue: ConventionCatalogue;
      broker: MqttBroker;
      defaults: LinkDefaults;
    },
  ) {
    super(options.path);
  }

  /** What decides what its calls publish, as announced when it last came online: the registry holds it to the pinned one. */
  get wiring(): LinkWiring | undefined {
    return this.wiringValue;
  }

  start(): void {
    if (this.started || this.status === 'closed') return;
    this.started = true;
    this.stopWatching.push(
      this.options.catalogue.onChange(() => this.refresh()),
      this.options.broker.onConnection(() => this.refresh()),
    );
    this.refresh();
  }

  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    await this.helloFor(tool, { waitMs: this.options.defaults.helloTimeoutMs ?? 2000, signal: options.signal });
    const device = this.device!;
    // Only as announced when it came online (what the registry compared with the pinned wiring).
    if (!sameWiring(device.wiring, this.wiringValue))
      throw new ToolError({
        reason: 'device_offline',
        detail: `${this.deviceId} changed its announcement during the call`,
        hint: 'retry once the device is back',
      });
    const planned = device.call(tool, args);
    if (planned.kind === 'last-state' && this.lastState === undefined && planned.otherwise)
      return this.publishInLane(planned.otherwise, options);
    if (planned.kind === 'last-state') {
      if (this.lastState === undefined)
        throw new ToolError({
          reason: 'failed',
          detail: `${this.deviceId} has published no state since Home Agent began listening`,
          hint: 'it publishes on a change or at its report interval: try again later',
        });
      return planned.answer(this.lastState);
    }
    return this.publishInLane(planned, options);
  }

  /** One publish at a time per device: two calls in flight could each take the other's confirmation. */
  private async publishInLane(planned: ConventionCall & { kind: 'publish' }, options: CallOptions): Promise<unknown> {
    const release = await this.lane.acquire(options.signal);
    try {
      return await this.publish(planned, options);
    } finally {
      release();
    }
  }

  /** Why it is not online: the broker, the announcement, or its availability; else the last trouble. */
  protected override notOnlineHint(): string | undefined {
    const { broker, catalogue, path } = this.options;
    if (!broker.connected) return `the broker ${broker.label} is not connected`;
    if (this.device === undefined)
      return catalogue.announces(path)
        ? `${path} is announced but not offered: ${catalogue.refused().find((refused) => refused.name === path)?.why ?? 'see the scan'}`
        : `${path} is not announced on the broker now`;
    if (!catalogue.isOnline(path) || !this.available(this.device)) return `${path} says it is offline`;
    return super.notOnlineHint();
  }

  async dispose(): Promise<void> {
    if (this.status === 'closed') return;
    this.lifetime.abort();
    for (const stop of this.stopWatching.splice(0)) stop();
    this.dropSubscriptions();
    this.failPending(new ToolError({ reason: 'device_offline', detail: `${this.deviceId}: the link was closed` }));
    this.setStatus('closed');
    this.clearListeners();
  }

  private async publish(planned: ConventionCall & { kind: 'publish' }, options: CallOptions): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.options.defaults.callTimeoutMs ?? 5000;
    const signal = AbortSignal.any([
      deadlineSignal(timeoutMs),
      this.lifetime.signal,
      ...(options.signal ? [options.signal] : []),
    ]);
    let sent = false;
    const markSent = (): void => {
      if (sent) return;
      sent = true;
      options.onSent?.();
    };
    let call!: PendingCall;
    const completed = new Promise<Completion>((resolve, reject) => {
      call = { completion: PUBLISHED, expect: planned.expect, finished: false, settle: resolve, fail: reject };
    });
    // Awaited below, after the publish: this keeps a failure that comes first from counting as unhandled.
    completed.catch(() => undefined);
    // Registered before publishing: a device may answer before the broker's acknowledgement reaches us.
    this.pending.add(call);
    const onAbort = (): void => {
      if (options.signal?.aborted)
        this.finish(call, new ToolError({ reason: 'aborted', detail: `${this.deviceId}: the call was stopped` }));
      else this.step(call, { type: 'timeout' });
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const ack = await this.options.broker
        .publish(planned.topic, planned.payload, { qos: 1, timeoutMs, signal })
        .catch((error: unknown) => error);
      if (ack instanceof MqttPublishError || ack instanceof Error) {
        if (ack instanceof MqttPublishError && ack.written) markSent();
        const timedOut = signal.aborted && !options.signal?.aborted && !this.lifetime.signal.aborted;
        this.finish(call, publishFailure({ deviceId: this.deviceId, error: ack, timedOut, timeoutMs }));
      } else if ((ack as MqttPublishAck).reasonCode >= MQTT_REFUSAL)
        this.finish(call, refusal(this.deviceId, planned.topic, (ack as MqttPublishAck).reasonCode));
      else {
        markSent();
        this.step(call, { type: 'acknowledged' });
      }
      const done = await completed;
      if (done.phase !== 'done') throw new Error('a call settled before it completed');
      // A state that confirmed it before the acknowledgement came: the command reached the device.
      markSent();
      return planned.answer({ confirmed: done.confirmed, ...(done.state ? { state: done.state } : {}) });
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.pending.delete(call);
    }
  }

  /** Moves one call on; a call that completes or times out is finished. */
  private step(call: PendingCall, event: CompletionEvent): void {
    if (call.finished) return;
    call.completion = nextCompletion(call.completion, event, call.expect);
    if (call.completion.phase === 'done') {
      call.finished = true;
      this.pending.delete(call);
      call.settle(call.completion);
    } else if (call.completion.phase === 'timed_out') {
      const last = call.completion.lastState;
      this.finish(
        call,
        new ToolError({
          reason: 'timeout',
          detail: call.completion.acknowledged
            ? `${this.deviceId} did not report ${call.expect?.describe ?? 'its state'} in time${last ? ` (last reported: ${JSON.stringify(last)})` : ''}`
            : `${this.deviceId}: the broker did not acknowledge the command in time`,
          hint: 'the command may have reached the device: read its state before trying again',
        }),
      );
    }
  }

  /** Ends one call with `error`, unless it has ended already. */
  private finish(call: PendingCall, error: ToolError): void {
    if (call.finished) return;
    call.finished = true;
    this.pending.delete(call);
    call.fail(error);
  }

  /** Re-reads what the family announces and what the broker and availability say; subscribes the device's topics. */
  private refresh(): void {
    if (this.status === 'closed') return;
    const device = this.options.catalogue.device(this.options.path);
    if (device !== this.device) this.follow(device);
    const online =
      device !== undefined &&
      this.options.broker.connected &&
      this.options.catalogue.isOnline(this.options.path) &&
      this.available(device);
    if (online) {
      if (
        this.status === 'online' &&
        (JSON.stringify(this.hello) !== JSON.stringify(device.hello) || !sameWiring(this.wiringValue, device.wiring))
      )
        // A changed announcement (a new config, a new topic or payload) is a new hello: the registry compares it with what was paired.
        this.setStatus('offline');
      this.wiringValue = device.wiring;
      if (this.status !== 'online') this.goOnline(device.hello);
      return;
    }
    if (this.status === 'online') {
      this.setStatus('offline');
      this.failPending(
        new ToolError({
          reason: 'device_offline',
          detail: `${this.deviceId} went offline during the call`,
          hint: 'retry once the device is back',
        }),
      );
      this.lane.failAll(new ToolError({ reason: 'device_offline', detail: `${this.deviceId} went offline` }));
    }
  }

  /** Subscribes the topics of the device as now announced (dropping the old ones when they changed). */
  private follow(device: ConventionDevice | undefined): void {
    const before = this.device?.topics.join('\n');
    this.device = device;
    if (device === undefined || device.topics.join('\n') !== before) {
      this.dropSubscriptions();
      this.availability.clear();
      this.latestAvailability = undefined;
      this.lastState = undefined;
      if (device === undefined) return;
      for (const topic of device.topics) {
        let active = true;
        const stop = { run: (): void => void (active = false) };
        this.unsubscribe.push(() => stop.run());
        this.options.broker
          .subscribe(topic, (message) => {
            if (active) this.receive(message.topic, message.payload);
          })
          .then(
            (unsubscribe) => {
              if (active) stop.run = () => ((active = false), unsubscribe());
              else unsubscribe();
            },
            (error: unknown) =>
              this.reportProblem({
                problem: 'connection',
                detail: `${this.label}: the broker refused to deliver ${topic}: ${error instanceof Error ? error.message : String(error)}`,
              }),
          );
      }
    }
  }

  private receive(topic: string, payload: Buffer): void {
    const device = this.device;
    if (device === undefined) return;
    const update = device.read(topic, payload);
    if (update === undefined) return;
    if ('online' in update) {
      this.availability.set(update.source, update.online);
      this.latestAvailability = update.online;
      this.refresh();
      return;
    }
    this.lastState = { state: update.state, receivedAt: new Date() };
    for (const call of [...this.pending]) this.step(call, { type: 'state', state: update.state });
  }

  /** Whether the device's availability sources say online, as its mode combines them; before any spoke, as the device says. */
  private available(device: ConventionDevice): boolean {
    const heard = [...this.availability.values()];
    if (heard.length === 0) return device.onlineBeforeAvailability;
    if (device.availabilityMode === 'latest') return this.latestAvailability ?? true;
    return device.availabilityMode === 'all' ? heard.every(Boolean) : heard.some(Boolean);
  }

  private dropSubscriptions(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
  }

  private failPending(error: ToolError): void {
    for (const call of [...this.pending]) this.finish(call, error);
  }
}
