import { ToolError } from '../../../core/tools/tool-error.ts';
import type { HelloResult, ResponseFrame } from '../../protocol/frame-schema.ts';
import type { DeviceEntry, DeviceRegistry } from '../../registry/device-registry.ts';
import { MQTT_REFUSAL, type MqttBroker, type MqttListenerVerdict, type MqttMessage } from '../mqtt-broker.ts';
import type { BridgeStateFile } from './bridge-state-file.ts';
import { bridgeTopics, parseBridgeTopic, type BridgeTopics } from './bridge-topics.ts';
import {
  BODY_SCHEMAS,
  BRIDGE_WIRE_VERSION,
  pairRequestSchema,
  readWire,
  signedGrantSchema,
  type Availability,
  type Description,
  type PairReply,
} from './bridge-wire.ts';
import { bridgedDeviceId } from './bridged-device-id.ts';
import { judgeRequest, type AnsweredRequest } from './judge-request.ts';
import { answerPairing } from './pairing-exchange.ts';
import { ReplayWindow } from './replay-window.ts';
import { signEvent, signResponse, verifyGrant } from './signed-messages.ts';

/** What a bridge counts: requests answered and refused, messages left unanswered by why, pairings made. */
export interface DeviceBridgeStats {
  answered: number;
  refused: number;
  unanswered: { malformed: number; unpaired: number; forged: number };
  paired: number;
}

/** How a bridge runs. */
export interface DeviceBridgeOptions {
  /** A connection made with `bridgeWill` as its will; the caller starts and closes it. */
  broker: MqttBroker;
  name: string;
  topicPrefix: string;
  maxMessageBytes: number;
  /** The bridge machine's own devices (granted all here: what a host may use, its grants say). */
  registry: DeviceRegistry;
  state: BridgeStateFile;
  log: (line: string) => void;
  now?: () => number;
  /** How long a device's call may run before its host is told `timeout` (default 10000 ms). */
  callTimeoutMs?: number;
  /** How far a request's time may be from this clock (default 30 s). */
  replayWindowMs?: number;
}

/** Lines of one kind logged before the rest are only counted: a flood is a few lines, not a full disk. */
const LOGGED_PER_KIND = 10;

/** The will of a bridge's connection: its availability, retained, `offline`. */
export function bridgeWill(
  topicPrefix: string,
  name: string,
): { topic: string; payload: string; retain: true; qos: 1 } {
  const offline: Availability = { state: 'offline' };
  return {
    topic: bridgeTopics(topicPrefix, name).availability,
    payload: JSON.stringify(offline),
    retain: true,
    qos: 1,
  };
}

/**
 * `home-agent bridge` on the broker: publishes its availability (retained, the will says offline) and
 * a retained description per device, answers requests signed by a paired host (MQTT 5 response topic
 * and correlation data) for what that host granted, pairs a host that proves the one-time code, and
 * sends each paired host its devices' events, signed. A request from no paired host, or not signed
 * with its key, gets no answer at all.
 */
export class DeviceBridge {
  readonly stats: DeviceBridgeStats = {
    answered: 0,
    refused: 0,
    unanswered: { malformed: 0, unpaired: 0, forged: 0 },
    paired: 0,
  };
  private readonly topics: BridgeTopics;
  private readonly window: ReplayWindow;
  private readonly now: () => number;
  private readonly lifetime = new AbortController();
  private readonly stops: (() => void)[] = [];
  /** The description last published per device id, to publish only what changed. */
  private readonly published = new Map<string, string>();
  private readonly logged = new Map<string, number>();

  constructor(private readonly options: DeviceBridgeOptions) {
    this.topics = bridgeTopics(options.topicPrefix, options.name);
    this.now = options.now ?? Date.now;
    this.window = new ReplayWindow({
      now: this.now,
      ...(options.replayWindowMs !== undefined ? { windowMs: options.replayWindowMs } : {}),
    });
  }

  /** Subscribes what a bridge answers and publishes what it offers, now and after every reconnect. */
  async start(): Promise<void> {
    const { broker, registry } = this.options;
    const base = `${this.options.topicPrefix}/${this.options.name}`;
    this.stops.push(
      await broker.subscribe(this.topics.pair, (message) => this.onPair(message)),
      await broker.subscribe(`${base}/device/+/request`, (message) => this.onRequest(message)),
      await broker.subscribe(`${base}/device/+/grant/+`, (message) => this.onGrant(message)),
      // A broker without persistence forgets retained messages when it restarts: they are sent again.
      broker.onConnection((up) => {
        if (up) void this.announce();
      }),
      registry.onChange(() => void this.announceDevices()),
      registry.onEvent((event) => void this.forwardEvent(event.deviceId, { event: event.event, data: event.data })),
    );
    if (broker.connected) await this.announce();
  }

  /** Says goodbye: availability `offline` (a clean stop sends no will), and stops answering. */
  async close(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    this.lifetime.abort();
    const offline: Availability = { state: 'offline' };
    if (this.options.broker.connected)
      await this.options.broker
        .publish(this.topics.availability, JSON.stringify(offline), { qos: 1, retain: true, timeoutMs: 2000 })
        .catch((error: unknown) => this.say('close', `could not say offline: ${(error as Error).message}`));
  }

  private async announce(): Promise<void> {
    const online: Availability = { state: 'online' };
    this.published.clear();
    await this.publish(this.topics.availability, JSON.stringify(online), { retain: true });
    await this.announceDevices();
  }

  /** Publishes the description of every device whose description changed, and clears those of devices gone. */
  private async announceDevices(): Promise<void> {
    if (!this.options.broker.connected) return;
    const current = new Map<string, string>();
    for (const entry of this.options.registry.entriesView()) {
      const description = this.describe(entry);
      if (description !== undefined) current.set(entry.trustedIdentity.id, JSON.stringify(description));
    }
    for (const [device, text] of current) {
      if (this.published.get(device) === text) continue;
      this.published.set(device, text);
      await this.publish(this.topics.description(device), text, { retain: true });
    }
    for (const device of [...this.published.keys()]) {
      if (current.has(device)) continue;
      this.published.delete(device);
      // An empty retained message removes the retained description.
      await this.publish(this.topics.description(device), '', { retain: true });
    }
  }

  /** A device's description as published: its hello with the id `BRIDGE.ID`; undefined when that id is too long. */
  private describe(entry: DeviceEntry): Description | undefined {
    const hello = this.bridgedHello(entry);
    if (hello === undefined) return undefined;
    return {
      v: BRIDGE_WIRE_VERSION,
      bridge: this.options.name,
      device: entry.trustedIdentity.id,
      hello,
      online: entry.session.status === 'online',
    };
  }

  private bridgedHello(entry: DeviceEntry): HelloResult | undefined {
    const local = entry.trustedIdentity.id;
    const id = bridgedDeviceId({ bridge: this.options.name, device: local });
    if (id === undefined) {
      this.say(
        `long:${local}`,
        `${local} is not published: ${this.options.name}.${local} is longer than a device id may be (64 characters); give the bridge a shorter --name`,
      );
      return undefined;
    }
    return { device: { ...entry.trustedIdentity, id }, tools: entry.tools, concurrent: true };
  }

  private onRequest(message: MqttMessage): MqttListenerVerdict {
    const topic = parseBridgeTopic(this.options.topicPrefix, message.topic);
    if (topic?.kind !== 'request' || topic.bridge !== this.options.name) return undefined;
    const judged = judgeRequest({
      prefix: this.options.topicPrefix,
      bridge: this.options.name,
      device: topic.device,
      payload: message.payload.toString('utf8'),
      responseTopic: message.properties?.responseTopic,
      correlation: message.properties?.correlationData,
      maxBytes: this.options.maxMessageBytes,
      keyOf: (host) => this.options.state.keyOf(host),
      grantOf: (host, device) => this.options.state.grantOf(host, device),
      window: this.window,
    });
    if (!judged.answer) {
      this.stats.unanswered[judged.why] += 1;
      this.say(
        `unanswered:${judged.why}`,
        `left a request for ${topic.device} unanswered (${judged.why}): ${judged.detail}`,
      );
      return judged.why === 'malformed' ? { malformed: judged.detail } : undefined;
    }
    void this.answer(judged);
    return undefined;
  }

  private async answer(judged: AnsweredRequest): Promise<void> {
    const { route, frame } = judged;
    let response: ResponseFrame;
    if (judged.refusal !== undefined || frame === undefined) {
      this.stats.refused += 1;
      const detail = judged.refusal?.detail ?? 'refused';
      this.say(`refused:${route.host}`, `refused a request of host ${route.host} for ${route.device}: ${detail}`);
      response = { id: judged.id, ok: false, error: { reason: judged.refusal?.reason ?? 'unauthorized', detail } };
    } else if (frame.op === 'hello') {
      const entry = this.options.registry.get(route.device);
      const hello = entry === undefined ? undefined : this.bridgedHello(entry);
      response = hello
        ? { id: frame.id, ok: true, result: hello }
        : {
            id: frame.id,
            ok: false,
            error: { reason: 'device_offline', detail: `${route.device} is not on this bridge` },
          };
    } else {
      response = await this.run(frame.id, route.device, frame.tool, frame.args);
    }
    if (response.ok) this.stats.answered += 1;
    const signed = signResponse({
      key: judged.key,
      route,
      correlation: judged.correlation.toString('base64url'),
      requestNonce: judged.nonce,
      frame: response,
    });
    await this.publish(judged.responseTopic, JSON.stringify(signed), {
      properties: { correlationData: judged.correlation },
    });
  }

  /** Runs one granted call on the local device; its failure goes back as the device error it is. */
  private async run(id: number, device: string, tool: string, args: Record<string, unknown>): Promise<ResponseFrame> {
    try {
      const result = await this.options.registry.call(device, tool, args, {
        signal: this.lifetime.signal,
        timeoutMs: this.options.callTimeoutMs ?? 10_000,
      });
      return { id, ok: true, result };
    } catch (error) {
      const data = ToolError.isInstance(error) ? error.toData() : { reason: 'failed' as const, detail: String(error) };
      return {
        id,
        ok: false,
        error: {
          reason: data.reason,
          ...(data.detail !== undefined ? { detail: data.detail.slice(0, 2000) } : {}),
          ...(data.field !== undefined ? { field: data.field.slice(0, 64) } : {}),
        },
      };
    }
  }

  private onPair(message: MqttMessage): MqttListenerVerdict {
    const read = readWire(pairRequestSchema, message.payload.toString('utf8'), this.options.maxMessageBytes);
    if (!read.ok) return { malformed: `not a pairing request: ${read.detail}` };
    const request = read.value;
    const replyTopic = this.topics.pairReply(request.host);
    const correlation = message.properties?.correlationData;
    if (message.properties?.responseTopic !== replyTopic || correlation === undefined)
      return { malformed: `a pairing request must name the response topic ${replyTopic} and correlation data` };
    const codeKey = this.options.state.pendingCodeKey();
    let reply: PairReply;
    if (codeKey === undefined) {
      reply = {
        ok: false,
        reason:
          'no pairing code is pending on this bridge: run `home-agent bridge --pairing-code` there and pair with the code it prints',
      };
      this.say(
        'pair:none',
        `refused a pairing of host ${request.host}: no code is pending (home-agent bridge --pairing-code makes one)`,
      );
    } else {
      const answered = answerPairing({ bridge: this.options.name, codeKey, request });
      reply = answered.reply;
      if (answered.ok) {
        this.options.state.addHost(request.host, answered.key, this.now());
        this.stats.paired += 1;
        this.options.log(
          `paired with host ${request.host}; the pairing code is used up (home-agent bridge --pairing-code makes another)`,
        );
      } else this.say('pair:wrong', `refused a pairing of host ${request.host}: the code does not match`);
    }
    void this.publish(replyTopic, JSON.stringify(reply), { properties: { correlationData: correlation } });
    return undefined;
  }

  private onGrant(message: MqttMessage): MqttListenerVerdict {
    const topic = parseBridgeTopic(this.options.topicPrefix, message.topic);
    if (topic?.kind !== 'grant' || topic.bridge !== this.options.name) return undefined;
    // An empty retained message only clears what the broker kept.
    if (message.payload.length === 0) return undefined;
    const read = readWire(signedGrantSchema, message.payload.toString('utf8'), this.options.maxMessageBytes);
    if (!read.ok) return { malformed: `not a grant: ${read.detail}` };
    const key = this.options.state.keyOf(topic.host);
    const route = { bridge: this.options.name, device: topic.device, host: topic.host };
    if (key === undefined || read.value.host !== topic.host || !verifyGrant({ key, route, message: read.value })) {
      this.stats.unanswered[key === undefined ? 'unpaired' : 'forged'] += 1;
      this.say(
        `grant:${topic.host}`,
        `ignored a grant for ${topic.device} not signed by a paired host (${topic.host})`,
      );
      return undefined;
    }
    const body = readWire(BODY_SCHEMAS.grant, read.value.body, this.options.maxMessageBytes);
    if (!body.ok) return { malformed: `not a grant: ${body.detail}` };
    const changed = this.options.state.setGrant({
      host: topic.host,
      device: topic.device,
      grant: body.value.grant,
      ts: read.value.ts,
    });
    if (changed) {
      const grant = body.value.grant;
      this.options.log(
        `host ${topic.host} grants on ${topic.device}: ${grant === 'all' ? 'every action' : grant.length === 0 ? 'nothing' : grant.join(', ')}`,
      );
    }
    return undefined;
  }

  private async forwardEvent(device: string, frame: { event: string; data: Record<string, unknown> }): Promise<void> {
    for (const host of this.options.state.hosts()) {
      const key = this.options.state.keyOf(host);
      if (key === undefined) continue;
      const signed = signEvent({ key, route: { bridge: this.options.name, device, host }, frame, now: this.now() });
      await this.publish(this.topics.event(device, host), JSON.stringify(signed), {});
    }
  }

  /** Publishes QoS 1; a refusal or a failure is logged (once per kind), never thrown: the bridge runs on. */
  private async publish(
    topic: string,
    payload: string,
    options: { retain?: boolean; properties?: { correlationData: Buffer } },
  ): Promise<void> {
    try {
      const ack = await this.options.broker.publish(topic, payload, {
        qos: 1,
        retain: options.retain ?? false,
        ...(options.properties ? { properties: options.properties } : {}),
        signal: this.lifetime.signal,
      });
      if (ack.reasonCode >= MQTT_REFUSAL)
        this.say(
          `refused:${topic}`,
          `the broker refused a publish on ${topic} (reason 0x${ack.reasonCode.toString(16)}): does its ACL let this bridge write ${this.options.topicPrefix}/${this.options.name}/#?`,
        );
    } catch (error) {
      if (!this.lifetime.signal.aborted)
        this.say(`publish:${topic}`, `could not publish on ${topic}: ${(error as Error).message}`);
    }
  }

  /** Logs the first lines of each kind; the rest are counted in `stats`. */
  private say(kind: string, line: string): void {
    const count = this.logged.get(kind) ?? 0;
    this.logged.set(kind, count + 1);
    if (count < LOGGED_PER_KIND) this.options.log(line);
    else if (count === LOGGED_PER_KIND) this.options.log(`${line} (further ones like it are only counted)`);
  }
}
