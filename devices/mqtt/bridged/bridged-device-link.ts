import { ToolError, type ToolErrorReason } from '../../../core/tools/tool-error.ts';
import { DeviceLinkBase } from '../../links/device-link-base.ts';
import type { CallOptions, LinkDefaults } from '../../links/session-types.ts';
import { checkHello } from '../../protocol/check-hello.ts';
import type { DeviceError, RequestBody, ResponseFrame } from '../../protocol/frame-schema.ts';
import type { DeviceGrant } from '../../links/device-grant.ts';
import { PendingRequests } from '../../session/pending-requests.ts';
import { abortableDelay } from '../../transport/abortable-delay.ts';
import { publishCall } from '../publish-call.ts';
import { MQTT_REFUSAL, type MqttBroker, type MqttListenerVerdict, type MqttMessage } from '../mqtt-broker.ts';
import { bridgeTopics, type BridgeTopics } from './bridge-topics.ts';
import {
  availabilitySchema,
  BODY_SCHEMAS,
  readWire,
  signedEventSchema,
  signedResponseSchema,
  type SignedGrant,
} from './bridge-wire.ts';
import { bridgedDeviceId, bridgedPath, type BridgedAddress } from './bridged-device-id.ts';
import { ReplayWindow } from './replay-window.ts';
import { signGrant, signRequest, verifyEvent, verifyResponse, type SignedRoute } from './signed-messages.ts';

/** The pairing a link signs with: the host's name on the bridge and the key they share. */
export interface BridgePairing {
  host: string;
  key: Buffer;
}

/** Reasons a paired bridge may report for its device; the rest (`not_found`, `aborted`) are the host's own and read `failed`. */
const BRIDGE_REASONS = new Set<ToolErrorReason>([
  'required',
  'type',
  'invalid_json',
  'timeout',
  'denied',
  'failed',
  'device_offline',
  'unauthorized',
]);

/**
 * The host's link to one bridged device: online while its bridge says it is (retained availability,
 * `offline` by its last will) and it answered a signed hello; each call a signed request with an MQTT 5
 * response topic and correlation data, sent (`onSent`) once written to the broker, answered by a
 * response signed with the pairing's key and bound to that request. When the bridge or the broker
 * drops, the link goes offline and its pending calls end `device_offline`. It tells the bridge its
 * grants, signed, and waits for that before a call. Events come signed for this host only.
 */
export class BridgedDeviceLink extends DeviceLinkBase {
  private readonly topics: BridgeTopics;
  private readonly route: SignedRoute;
  private readonly pending = new PendingRequests();
  /**
   * The nonce of each request awaiting its answer, by id: ids start again in every process, so an
   * answer recorded for the same id earlier (signed, and bound to that correlation data) differs here.
   */
  private readonly asked = new Map<number, string>();
  private readonly events = new ReplayWindow();
  private readonly stops: (() => void)[] = [];
  private readonly timings: { callTimeoutMs: number; helloTimeoutMs: number; reconnectIntervalMs: number };
  private nextId = 1;
  private bridgeOnline = false;
  /** Bumped at each availability change: a hello from an earlier one no longer brings the link online. */
  private epoch = 0;
  private grant: SignedGrant | undefined;
  private grantSent: Promise<void> = Promise.resolve();
  private started = false;

  constructor(
    private readonly options: {
      broker: MqttBroker;
      topicPrefix: string;
      address: BridgedAddress;
      pairing: BridgePairing;
      maxMessageBytes: number;
      defaults: LinkDefaults;
      now?: () => number;
    },
  ) {
    super(bridgedPath(options.address));
    this.topics = bridgeTopics(options.topicPrefix, options.address.bridge);
    this.route = { ...options.address, host: options.pairing.host };
    this.timings = {
      callTimeoutMs: options.defaults.callTimeoutMs ?? 5000,
      helloTimeoutMs: options.defaults.helloTimeoutMs ?? 2000,
      reconnectIntervalMs: Math.max(options.defaults.reconnectIntervalMs ?? 100, 100),
    };
  }

  start(): void {
    if (this.started || this.status === 'closed') return;
    this.started = true;
    void this.subscribe().catch((error: unknown) => {
      if (!this.lifetime.signal.aborted)
        this.reportProblem({ problem: 'connection', detail: `${this.label}: ${(error as Error).message}` });
    });
  }

  /** Signs what the person granted and sends it (retained) to the bridge, which refuses anything else. */
  grantChanged(grant: DeviceGrant): void {
    // Later than any earlier grant message, even if the clock stepped back.
    const ts = Math.max(this.now(), (this.grant?.ts ?? 0) + 1);
    this.grant = signGrant({ key: this.options.pairing.key, route: this.route, grant, now: ts });
    if (this.options.broker.connected) this.grantSent = this.sendGrant();
  }

  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    await this.helloFor(tool, { waitMs: this.timings.helloTimeoutMs, signal: options.signal });
    await this.grantSent;
    const response = await this.request(
      { op: 'call', tool, args },
      { timeoutMs: options.timeoutMs ?? this.timings.callTimeoutMs, signal: options.signal, onSent: options.onSent },
    );
    if (response.ok) return response.result;
    throw this.mapError(response.error);
  }

  async dispose(): Promise<void> {
    if (this.status === 'closed') return;
    this.lifetime.abort();
    for (const stop of this.stops.splice(0)) stop();
    this.pending.failAll(new ToolError({ reason: 'device_offline', detail: `${this.label}: closed` }));
    this.setStatus('closed');
    this.clearListeners();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async subscribe(): Promise<void> {
    const { broker } = this.options;
    const { device, bridge } = this.options.address;
    const host = this.options.pairing.host;
    this.stops.push(
      broker.onConnection((up) => {
        if (!up) this.goOffline(`lost the broker ${broker.label}`);
      }),
      await broker.subscribe(this.topics.reply(host), (message) => this.onResponseMessage(message)),
      await broker.subscribe(this.topics.event(device, host), (message) => this.onEventMessage(message)),
      // Last: its retained message starts the hello, once answers can be heard.
      await broker.subscribe(this.topics.availability, (message) => {
        const read = readWire(availabilitySchema, message.payload.toString('utf8'), this.options.maxMessageBytes);
        if (!read.ok) return { malformed: `availability of ${bridge}: ${read.detail}` };
        if (read.value.state === 'online') this.bridgeCameOnline();
        else this.goOffline(`the bridge ${bridge} is offline`);
        return undefined;
      }),
    );
  }

  private bridgeCameOnline(): void {
    if (this.lifetime.signal.aborted) return;
    this.epoch += 1;
    this.bridgeOnline = true;
    void this.askHello(this.epoch);
  }

  private goOffline(why: string): void {
    this.epoch += 1;
    this.bridgeOnline = false;
    if (this.status === 'closed') return;
    if (this.status === 'online') this.setStatus('offline');
    this.pending.failAll(
      new ToolError({
        reason: 'device_offline',
        detail: `${this.label}: ${why}`,
        hint: 'retry once the bridge is back',
      }),
    );
  }

  /** Tells the bridge the grants, then asks the device who it is, until it answers or the bridge goes away. */
  private async askHello(epoch: number): Promise<void> {
    const signal = this.lifetime.signal;
    while (!signal.aborted && this.bridgeOnline && epoch === this.epoch) {
      try {
        if (this.grant !== undefined) await (this.grantSent = this.sendGrant());
        const response = await this.request({ op: 'hello' }, { timeoutMs: this.timings.helloTimeoutMs, signal });
        if (epoch !== this.epoch) return;
        if (!response.ok) throw this.mapError(response.error);
        const checked = checkHello(response.result, this.options.defaults.toolNameOwner);
        const expected = bridgedDeviceId(this.options.address);
        if (!checked.ok || checked.hello.device.id !== expected) {
          const reason = checked.ok ? `it answers as ${checked.hello.device.id}, not ${expected}` : checked.reason;
          this.reportProblem({ problem: 'hello_refused', detail: `${this.label}: hello refused: ${reason}` });
        } else {
          this.goOnline(checked.hello);
          return;
        }
      } catch (error) {
        if (signal.aborted || epoch !== this.epoch) return;
        this.reportProblem({ problem: 'connection', detail: `${this.label}: ${(error as Error).message}` });
      }
      await abortableDelay(this.timings.reconnectIntervalMs * 10, signal).catch(() => undefined);
    }
  }

  private async sendGrant(): Promise<void> {
    const grant = this.grant;
    if (grant === undefined) return;
    const topic = this.topics.grant(this.options.address.device, this.options.pairing.host);
    try {
      const ack = await this.options.broker.publish(topic, JSON.stringify(grant), {
        qos: 1,
        retain: true,
        signal: this.lifetime.signal,
      });
      if (ack.reasonCode >= MQTT_REFUSAL)
        this.reportProblem({
          problem: 'connection',
          detail: `${this.label}: the broker refused the grant on ${topic} (reason 0x${ack.reasonCode.toString(16)})`,
        });
    } catch (error) {
      this.reportProblem({
        problem: 'connection',
        detail: `${this.label}: sending the grant: ${(error as Error).message}`,
      });
    }
  }

  /** Sends one signed request (publishCall: `onSent` once written) and waits for its signed answer. */
  private async request(
    body: RequestBody,
    options: { timeoutMs: number; signal?: AbortSignal | undefined; onSent?: (() => void) | undefined },
  ): Promise<ResponseFrame> {
    const id = this.nextId++;
    const correlation = Buffer.from(String(id));
    const replyTopic = this.topics.reply(this.options.pairing.host);
    const answer = this.pending.wait(id, {
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      label: this.label,
    });
    const message = signRequest({
      key: this.options.pairing.key,
      route: this.route,
      reply: { topic: replyTopic, correlation: correlation.toString('base64url') },
      frame: { id, ...body } as Parameters<typeof signRequest>[0]['frame'],
      now: this.now(),
    });
    this.asked.set(id, message.nonce);
    void answer.then(
      () => this.asked.delete(id),
      () => this.asked.delete(id),
    );
    try {
      await publishCall({
        broker: this.options.broker,
        topic: this.topics.request(this.options.address.device),
        payload: JSON.stringify(message),
        properties: { responseTopic: replyTopic, correlationData: correlation },
        deviceId: this.label,
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        onSent: options.onSent,
      });
    } catch (error) {
      this.pending.fail(
        id,
        ToolError.isInstance(error)
          ? error
          : new ToolError({ reason: 'device_offline', detail: `${this.label}: ${(error as Error).message}` }),
      );
    }
    return answer;
  }

  private onResponseMessage(message: MqttMessage): MqttListenerVerdict {
    const read = readWire(signedResponseSchema, message.payload.toString('utf8'), this.options.maxMessageBytes);
    if (!read.ok) return { malformed: `not a bridge response: ${read.detail}` };
    // Every link of this bridge and host hears every answer on the host's reply topic: only its own are read.
    if (read.value.device !== this.options.address.device) return undefined;
    const correlation = message.properties?.correlationData;
    if (
      correlation === undefined ||
      !verifyResponse({
        key: this.options.pairing.key,
        route: this.route,
        correlation: correlation.toString('base64url'),
        message: read.value,
      })
    ) {
      this.stats.invalidFrame += 1;
      return { malformed: `an answer for ${this.label} not signed with the pairing's key` };
    }
    const frame = readWire(BODY_SCHEMAS.response, read.value.body, this.options.maxMessageBytes);
    if (!frame.ok || String(frame.value.id) !== correlation.toString('utf8')) {
      this.stats.invalidFrame += 1;
      return { malformed: `an answer for ${this.label} that is no response to its request` };
    }
    const asked = this.asked.get(frame.value.id);
    if (asked !== undefined && asked !== read.value.nonce) {
      this.stats.invalidFrame += 1;
      return {
        malformed: `an answer for ${this.label} to an earlier request with the same id (a replay), not to this one`,
      };
    }
    if (this.pending.settle(frame.value) || this.pending.answersStopped(frame.value.id)) return undefined;
    this.stats.unmatchedResponse += 1;
    return { malformed: `an answer for ${this.label} to no request awaiting one (a replay, or answered already)` };
  }

  private onEventMessage(message: MqttMessage): MqttListenerVerdict {
    const read = readWire(signedEventSchema, message.payload.toString('utf8'), this.options.maxMessageBytes);
    if (!read.ok) {
      this.stats.invalidFrame += 1;
      return { malformed: `not a bridge event: ${read.detail}` };
    }
    if (!verifyEvent({ key: this.options.pairing.key, route: this.route, message: read.value })) {
      this.stats.invalidFrame += 1;
      return { malformed: `an event for ${this.label} not signed with the pairing's key` };
    }
    if (!this.events.admit(read.value.ts, read.value.nonce).ok) {
      this.stats.invalidFrame += 1;
      return { malformed: `a stale or replayed event for ${this.label}` };
    }
    const frame = readWire(BODY_SCHEMAS.event, read.value.body, this.options.maxMessageBytes);
    if (!frame.ok) return { malformed: `an event for ${this.label}: ${frame.detail}` };
    if (this.status === 'online') this.reportEvent(frame.value);
    return undefined;
  }

  /** A bridge's error as the host's: its own device's reasons, its refusals and its offline devices pass; the rest read `failed`. */
  private mapError(error: DeviceError): ToolError {
    const known = BRIDGE_REASONS.has(error.reason as ToolErrorReason);
    return new ToolError({
      reason: known ? (error.reason as ToolErrorReason) : 'failed',
      detail: `${this.label}: ${known ? (error.detail ?? error.reason) : `the bridge reported ${error.reason}${error.detail ? `: ${error.detail}` : ''}`}`,
      ...(error.field !== undefined ? { field: error.field } : {}),
    });
  }
}
