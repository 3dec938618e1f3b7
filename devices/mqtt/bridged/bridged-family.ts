import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { DeviceLink } from '../../links/device-link.ts';
import type { LinkDefaults } from '../../links/session-types.ts';
import type { WayInOptions } from '../../links/way-in.ts';
import type { HelloResult } from '../../protocol/frame-schema.ts';
import type { MqttBroker, MqttListenerVerdict, MqttMessage } from '../mqtt-broker.ts';
import {
  MAX_FOUND_DEVICES,
  type FoundMqttDevice,
  type MqttDeviceFamily,
  type MqttDeviceFamilyFactory,
  type MqttFamilyContext,
  type MqttLinkRequest,
  type RefusedMqttDevice,
} from '../mqtt-device-family.ts';
import { descriptionProblem } from './description-problem.ts';
import { bridgeDiscoveryTopics, bridgeTopics, hostIdSchema, parseBridgeTopic } from './bridge-topics.ts';
import { availabilitySchema, descriptionSchema, pairReplySchema, readWire, type Description } from './bridge-wire.ts';
import { BRIDGED_SOURCE, bridgedDeviceId, bridgedPath, parseBridgedPath } from './bridged-device-id.ts';
import { BridgedDeviceLink, type BridgePairing } from './bridged-device-link.ts';
import { pairingCodeSchema, startPairing } from './pairing-exchange.ts';
import { deadlineSignal } from '../../../core/text/deadline-signal.ts';

/**
 * What a bridged pairing keeps with its way in's options: the host's name on the bridge and the key
 * they share (base64url). The key never leaves the host's data folder; the code it came from is never kept.
 */
export const bridgedPairingOptionsSchema = z.object({
  bridgeHost: hostIdSchema,
  bridgeKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, '32 bytes, base64url'),
});

/** How long a pairing waits for the bridge's answer. */
const PAIR_TIMEOUT_MS = 10_000;

/**
 * The bridged family (`mqtt:BRIDGE/ID`): devices that `home-agent bridge` publishes. It finds them by
 * their retained descriptions and their bridge's availability; pairing a bridge's first device runs
 * the code exchange (one per bridge: its other devices reuse the key); each link signs its requests.
 */
export const bridgedFamily: MqttDeviceFamilyFactory = (context) => new BridgedFamily(context);

class BridgedFamily implements MqttDeviceFamily {
  readonly source = BRIDGED_SOURCE;
  private readonly descriptions = new Map<string, Description>();
  private readonly online = new Map<string, boolean>();
  /** The pairing of each bridge this host holds (from a pairing made here, or a paired device's options). */
  private readonly pairings = new Map<string, BridgePairing>();
  /** Descriptions found to disagree with what their bridge signs, by path, with why: not offered until the next one. */
  private readonly disowned = new Map<string, string>();

  constructor(private readonly context: MqttFamilyContext) {}

  discoveryTopics(): string[] {
    return bridgeDiscoveryTopics(this.context.topicPrefix);
  }

  receive(message: MqttMessage): MqttListenerVerdict {
    const topic = parseBridgeTopic(this.context.topicPrefix, message.topic);
    if (topic === undefined) return undefined;
    const text = message.payload.toString('utf8');
    if (topic.kind === 'availability') {
      const read = readWire(availabilitySchema, text, this.context.maxMessageBytes);
      if (!read.ok) return { malformed: `availability of ${topic.bridge}: ${read.detail}` };
      this.online.set(topic.bridge, read.value.state === 'online');
      return undefined;
    }
    if (topic.kind !== 'description') return undefined;
    const path = bridgedPath({ bridge: topic.bridge, device: topic.device });
    this.disowned.delete(path);
    // An empty retained description: the bridge no longer has the device.
    if (message.payload.length === 0) {
      this.descriptions.delete(path);
      return undefined;
    }
    const read = readWire(descriptionSchema, text, this.context.maxMessageBytes);
    if (!read.ok) return { malformed: `description of ${path}: ${read.detail}` };
    const description = read.value;
    const expected = bridgedDeviceId({ bridge: topic.bridge, device: topic.device });
    if (
      description.bridge !== topic.bridge ||
      description.device !== topic.device ||
      description.hello.device.id !== expected
    )
      return { malformed: `description of ${path} names another device (${description.hello.device.id})` };
    if (!this.descriptions.has(path) && this.descriptions.size >= MAX_FOUND_DEVICES)
      return { malformed: `description of ${path}: more than ${MAX_FOUND_DEVICES} devices announced, ignored` };
    this.descriptions.set(path, description);
    return undefined;
  }

  found(): FoundMqttDevice[] {
    return [...this.descriptions.entries()]
      .filter(([path]) => !this.disowned.has(path))
      .map(([path, description]) => ({
        path,
        hello: description.hello,
        online: (this.online.get(description.bridge) ?? false) && description.online,
      }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Descriptions that disagreed with what their bridge signs, each with what differed. */
  refused(): RefusedMqttDevice[] {
    return [...this.disowned.entries()].map(([name, why]) => ({ name, why }));
  }

  /**
   * The device's hello as its bridge signs it (asked over the pairing `kept`, bound to that request),
   * compared with its unsigned description: a description that says otherwise — one action's
   * `confirm` dropped, another identity — is refused and disowned, whoever published it.
   */
  async signedHello(request: {
    path: string;
    announced: HelloResult;
    kept: WayInOptions;
    broker: MqttBroker;
    defaults: LinkDefaults;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
  }): Promise<HelloResult> {
    const link = this.openLink({
      path: request.path,
      options: request.kept,
      broker: request.broker,
      defaults: request.defaults,
    });
    let signed: HelloResult;
    try {
      link.start();
      signed = await link.whenOnline({
        timeoutMs: request.timeoutMs,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      throw new Error(
        `${request.path}: its bridge did not answer a signed hello, and nothing it did not sign is paired: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      await link.dispose();
    }
    const problem = descriptionProblem({ announced: request.announced, signed });
    if (problem !== undefined) {
      const why = `its published description is not what its bridge signs (${problem}): someone else may publish on its description topic; refused, nothing paired`;
      this.disowned.set(request.path, why);
      throw new Error(`${request.path}: ${why}`);
    }
    return signed;
  }

  /** A bridge's device needs the code until this host holds an agreement with that bridge (made here, or a paired device's). */
  needsCode(path: string): boolean {
    const address = parseBridgedPath(path);
    return address !== undefined && !this.pairings.has(address.bridge);
  }

  openLink(request: MqttLinkRequest): DeviceLink {
    const address = parseBridgedPath(request.path);
    if (address === undefined) throw new Error(`${request.path} is not a bridged device's path (mqtt:BRIDGE/ID)`);
    const pairing = this.pairingFrom(request.options);
    if (pairing === undefined)
      throw new Error(
        `${request.path} is not paired with its bridge: pair it with the code the bridge prints (--code CODE)`,
      );
    this.pairings.set(address.bridge, pairing);
    return new BridgedDeviceLink({
      broker: request.broker,
      topicPrefix: this.context.topicPrefix,
      address,
      pairing,
      maxMessageBytes: this.context.maxMessageBytes,
      defaults: request.defaults,
    });
  }

  /**
   * With a code: the pairing exchange with the device's bridge (the code proves the host to the bridge
   * and the bridge to the host; it never travels). Without one: the pairing this host already holds
   * with that bridge. Returns the options to keep with the pairing.
   */
  async pair(request: {
    path: string;
    code: string | undefined;
    beside?: readonly { path: string; kept: WayInOptions }[];
    broker: MqttBroker;
    signal: AbortSignal;
  }): Promise<WayInOptions> {
    const address = parseBridgedPath(request.path);
    if (address === undefined) throw new Error(`${request.path} is not a bridged device's path (mqtt:BRIDGE/ID)`);
    if (request.code === undefined) {
      // A pairing with this bridge made before (by this process, or kept with another of its devices).
      const held =
        this.pairings.get(address.bridge) ??
        (request.beside ?? [])
          .filter((other) => parseBridgedPath(other.path)?.bridge === address.bridge)
          .map((other) => this.pairingFrom(other.kept))
          .find((pairing) => pairing !== undefined);
      if (held === undefined)
        throw new Error(
          `the bridge ${address.bridge} needs its pairing code: add --code CODE (the bridge prints it when it starts; \`home-agent bridge --pairing-code\` on its machine makes a new one)`,
        );
      return optionsOf(held);
    }
    const code = pairingCodeSchema.safeParse(request.code);
    if (!code.success) throw new Error(`--code: ${code.error.issues[0]?.message ?? 'not a pairing code'}`);
    const pairing = await this.exchange(address.bridge, code.data, request.broker, request.signal);
    this.pairings.set(address.bridge, pairing);
    return optionsOf(pairing);
  }

  private async exchange(
    bridge: string,
    code: string,
    broker: MqttBroker,
    signal: AbortSignal,
  ): Promise<BridgePairing> {
    const host = randomBytes(8).toString('hex');
    const topics = bridgeTopics(this.context.topicPrefix, bridge);
    const started = startPairing({ bridge, host, code });
    const correlation = randomBytes(8);
    let settle!: (reply: { ok: true; key: Buffer } | { ok: false; error: Error }) => void;
    const replied = new Promise<{ ok: true; key: Buffer } | { ok: false; error: Error }>(
      (resolve) => (settle = resolve),
    );
    const stop = await broker.subscribe(topics.pairReply(host), (message) => {
      if (!message.properties?.correlationData?.equals(correlation)) return undefined;
      const read = readWire(pairReplySchema, message.payload.toString('utf8'), this.context.maxMessageBytes);
      if (!read.ok) return { malformed: `not a pairing reply: ${read.detail}` };
      try {
        settle({ ok: true, key: started.finish(read.value) });
      } catch (error) {
        settle({ ok: false, error: error as Error });
      }
      return undefined;
    });
    try {
      const wait = AbortSignal.any([signal, deadlineSignal(PAIR_TIMEOUT_MS)]);
      const ack = await broker.publish(topics.pair, JSON.stringify(started.request), {
        qos: 1,
        properties: { responseTopic: topics.pairReply(host), correlationData: correlation },
        signal: wait,
      });
      if (ack.reasonCode >= 0x80)
        throw new Error(
          `the broker refused the pairing request on ${topics.pair} (reason 0x${ack.reasonCode.toString(16)})`,
        );
      const reply = await Promise.race([
        replied,
        new Promise<never>((_resolve, reject) => {
          const fail = (): void =>
            reject(
              new Error(
                `the bridge ${bridge} did not answer the pairing within ${PAIR_TIMEOUT_MS / 1000} s: is it running on this broker?`,
              ),
            );
          if (wait.aborted) fail();
          else wait.addEventListener('abort', fail, { once: true });
        }),
      ]);
      if (!reply.ok) throw reply.error;
      return { host, key: reply.key };
    } finally {
      stop();
    }
  }

  private pairingFrom(options: WayInOptions): BridgePairing | undefined {
    const read = bridgedPairingOptionsSchema.safeParse(options);
    if (!read.success) return undefined;
    return { host: read.data.bridgeHost, key: Buffer.from(read.data.bridgeKey, 'base64url') };
  }
}

function optionsOf(pairing: BridgePairing): WayInOptions {
  return { bridgeHost: pairing.host, bridgeKey: pairing.key.toString('base64url') };
}
