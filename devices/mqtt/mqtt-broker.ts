import { randomBytes } from 'node:crypto';
import type { IClientPublishOptions, MqttClient } from 'mqtt';
import { Emitter } from '../../core/events/emitter.ts';
import { abortableDelay } from '../transport/abortable-delay.ts';
import { describeMqttAddress, type MqttCredentials } from './mqtt-url.ts';
import { topicMatches } from './topic-matches.ts';
import { deadlineSignal } from '../../core/text/deadline-signal.ts';

/** The MQTT 5 properties a message may carry that families read or set. */
export interface MqttMessageProperties {
  responseTopic?: string;
  correlationData?: Buffer;
  contentType?: string;
  messageExpiryInterval?: number;
  userProperties?: Record<string, string | string[]>;
}

/** One message as the broker delivered it. */
export interface MqttMessage {
  topic: string;
  payload: Buffer;
  retain: boolean;
  properties?: MqttMessageProperties;
}

/**
 * What a listener says of a message it could not use (`{malformed: 'not JSON'}`): the broker counts
 * it and reports it as a problem. Anything else (undefined) means it was taken or ignored.
 */
export type MqttListenerVerdict = { malformed: string } | undefined | void;

/** A message dropped, or trouble with the connection, as `onProblem` reports it. */
export interface MqttProblem {
  problem: 'oversized' | 'malformed' | 'connection' | 'refused_subscription';
  detail: string;
}

/** Counters of what the broker connection saw and dropped. */
export interface MqttBrokerStats {
  received: number;
  oversized: number;
  malformed: number;
  connects: number;
}

/** What the broker answered a QoS 1 publish: its PUBACK reason code (0 or 0x10 delivered, 0x87 not authorized…). */
export interface MqttPublishAck {
  reasonCode: number;
}

/** MQTT 5 PUBACK / SUBACK reason codes at or above this refuse the packet. */
export const MQTT_REFUSAL = 0x80;
/** The reason code Mosquitto answers a publish or subscribe its ACL denies with. */
export const MQTT_NOT_AUTHORIZED = 0x87;

/** How long `connect` waits once nothing listens at the broker's address (a broker still starting). */
const UNREACHABLE_GRACE_MS = 1000;

/** Whether a connection error says that nothing listens at the address, or the address leads nowhere. */
function nothingListens(trouble: string | undefined): boolean {
  return trouble !== undefined && /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH)\b/.test(trouble);
}

/** A publish that got no PUBACK: not `written` means it never left (not connected), so the broker has not seen it. */
export class MqttPublishError extends Error {
  override readonly name = 'MqttPublishError';
  readonly written: boolean;
  constructor(message: string, options: { written: boolean }) {
    super(message);
    this.written = options.written;
  }
}

/** Options of one broker connection. */
export interface MqttBrokerOptions {
  credentials: MqttCredentials;
  /** Messages over this many payload bytes are counted and dropped, and larger publishes refused. */
  maxMessageBytes: number;
  /** Defaults to `home-agent-` and random hex. */
  clientId?: string;
  /** How long one connection attempt waits for CONNACK (default 5000 ms). */
  connectTimeoutMs?: number;
  /** The pause between a lost or failed connection and the next attempt (default 1000 ms). */
  reconnectIntervalMs?: number;
  /** Seconds between keep-alive pings (default 30). */
  keepaliveSeconds?: number;
  /** Published by the broker when this connection drops without a goodbye. */
  will?: { topic: string; payload: Buffer | string; retain?: boolean; qos?: 0 | 1 };
}

interface Subscription {
  filter: string;
  listener: (message: MqttMessage) => MqttListenerVerdict;
}

/**
 * One MQTT 5 connection to a broker for the host or a bridge: connects with a timeout and keeps
 * reconnecting until `close`, subscribes filters again after each reconnect, publishes QoS 1 resolving
 * on the PUBACK's reason code, and counts and drops what is oversized or what a listener finds
 * malformed. Each connection is a fresh client, so a publish the broker never acknowledged is failed
 * when its connection drops and never sent again behind the caller's back.
 */
export class MqttBroker {
  readonly stats: MqttBrokerStats = { received: 0, oversized: 0, malformed: 0, connects: 0 };
  /** For messages: the broker's address (it holds no password). */
  readonly label: string;
  private readonly lifetime = new AbortController();
  private readonly subscriptions = new Set<Subscription>();
  /**
   * The MQTT 5 subscription identifier of each filter: a message names the subscriptions it matched,
   * so one that matches two filters reaches each listener once even when the broker sends it twice.
   */
  private readonly filterIds = new Map<string, number>();
  private readonly connection = new Emitter<boolean>({ name: 'broker connection' });
  private readonly problems = new Emitter<MqttProblem>({ name: 'broker problem' });
  /** This connection's client id: unique on the broker, so topics of its own (a sync marker) can name it. */
  readonly clientId: string;
  private client: MqttClient | undefined;
  private up = false;
  private started = false;
  private lastTrouble: string | undefined;
  /** Set when the broker refused our credentials: retrying cannot help until they change. */
  private refusal: string | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: MqttBrokerOptions) {
    this.label = describeMqttAddress(options.credentials.address);
    this.clientId = options.clientId ?? `home-agent-${randomBytes(6).toString('hex')}`;
  }

  /** Whether a connection is up now. */
  get connected(): boolean {
    return this.up;
  }

  /** Starts connecting, and reconnecting until `close`; idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.loop = this.connectLoop();
  }

  /**
   * Starts (if needed) and resolves once connected. Rejects at once when the broker refuses the
   * credentials, else after `timeoutMs` or on abort, naming the last trouble.
   */
  async connect(options: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    this.start();
    if (this.up) return;
    await new Promise<void>((resolve, reject) => {
      const signal = AbortSignal.any([
        this.lifetime.signal,
        deadlineSignal(options.timeoutMs),
        ...(options.signal ? [options.signal] : []),
      ]);
      let unreachableTimer: ReturnType<typeof setTimeout> | undefined;
      const finish = (): void => {
        signal.removeEventListener('abort', stop);
        clearTimeout(unreachableTimer);
        removeUp();
        removeProblem();
      };
      const unreachable = (): void => {
        finish();
        reject(
          new Error(
            `the broker ${this.label} is not reachable (${this.lastTrouble}): is it running, and is the address right?`,
          ),
        );
      };
      // Nothing listens at the address: a broker still starting gets a short grace, not the whole wait.
      const watchReachable = (): void => {
        if (unreachableTimer === undefined && nothingListens(this.lastTrouble))
          unreachableTimer = setTimeout(unreachable, UNREACHABLE_GRACE_MS);
      };
      const stop = (): void => {
        finish();
        reject(
          new Error(
            `no connection to the broker ${this.label} within ${options.timeoutMs} ms` +
              (this.lastTrouble === undefined ? '' : ` (last: ${this.lastTrouble})`),
          ),
        );
      };
      const removeUp = this.onConnection((up) => {
        if (!up) return;
        finish();
        resolve();
      });
      const removeProblem = this.onProblem(() => {
        if (this.refusal === undefined) return watchReachable();
        finish();
        reject(new Error(this.refusal));
      });
      if (this.refusal !== undefined) {
        finish();
        reject(new Error(this.refusal));
      } else if (signal.aborted) stop();
      else {
        signal.addEventListener('abort', stop, { once: true });
        watchReachable();
      }
    });
  }

  /** Tells `listener` each time the connection comes up (true) or goes down (false). */
  onConnection(listener: (up: boolean) => void): () => void {
    return this.connection.subscribe(listener);
  }

  /** Tells `listener` of each dropped message and connection trouble. */
  onProblem(listener: (problem: MqttProblem) => void): () => void {
    return this.problems.subscribe(listener);
  }

  /**
   * Delivers every message on a topic matching `filter` to `listener` (retained ones first, as the
   * broker sends them), now and after every reconnect. Resolves once the broker granted the filter
   * (at once when not connected: it is asked on connecting); rejects when the broker refuses it.
   * The returned function unsubscribes.
   */
  async subscribe(filter: string, listener: (message: MqttMessage) => MqttListenerVerdict): Promise<() => void> {
    const subscription: Subscription = { filter, listener };
    this.subscriptions.add(subscription);
    const remove = (): void => {
      if (!this.subscriptions.delete(subscription)) return;
      if (![...this.subscriptions].some((other) => other.filter === filter) && this.up)
        this.client?.unsubscribe(filter, (error) => {
          if (error) this.report({ problem: 'connection', detail: `unsubscribe ${filter}: ${error.message}` });
        });
    };
    if (!this.up || this.client === undefined) return remove;
    try {
      await this.subscribeOn(this.client, filter);
    } catch (error) {
      this.subscriptions.delete(subscription);
      throw error;
    }
    return remove;
  }

  /**
   * Publishes one message. QoS 1 (the default) resolves with the PUBACK's reason code — a refusal
   * such as 0x87 (the ACL denies it) resolves too, for the caller to read; QoS 0 resolves once
   * written. Rejects `MqttPublishError` when not connected (`written: false`), when the connection
   * drops before the PUBACK or it does not come within `timeoutMs` (`written: true`), and refuses a
   * payload over `maxMessageBytes` before sending anything.
   */
  publish(
    topic: string,
    payload: Buffer | string,
    options: {
      qos?: 0 | 1;
      retain?: boolean;
      properties?: MqttMessageProperties;
      timeoutMs?: number;
      signal?: AbortSignal;
    } = {},
  ): Promise<MqttPublishAck> {
    const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (bytes > this.options.maxMessageBytes)
      return Promise.reject(
        new MqttPublishError(`a message of ${bytes} bytes is over the limit of ${this.options.maxMessageBytes}`, {
          written: false,
        }),
      );
    const client = this.client;
    if (!this.up || client === undefined || !client.connected)
      return Promise.reject(new MqttPublishError(`not connected to the broker ${this.label}`, { written: false }));
    const qos = options.qos ?? 1;
    const publishOptions: IClientPublishOptions = {
      qos,
      retain: options.retain ?? false,
      ...(options.properties ? { properties: options.properties } : {}),
    };
    return new Promise<MqttPublishAck>((resolve, reject) => {
      const signal = AbortSignal.any([
        this.lifetime.signal,
        deadlineSignal(options.timeoutMs ?? 10_000),
        ...(options.signal ? [options.signal] : []),
      ]);
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        signal.removeEventListener('abort', stop);
        return true;
      };
      const stop = (): void => {
        if (!settle()) return;
        reject(
          new MqttPublishError(`no acknowledgement from the broker ${this.label} for ${topic}`, { written: true }),
        );
      };
      signal.addEventListener('abort', stop, { once: true });
      client.publish(topic, payload, publishOptions, (error, packet) => {
        if (!settle()) return;
        const code = reasonCodeOf(error) ?? (packet as { reasonCode?: number } | undefined)?.reasonCode ?? 0;
        if (error && reasonCodeOf(error) === undefined)
          reject(new MqttPublishError(`${topic}: ${error.message}`, { written: true }));
        else resolve({ reasonCode: code });
      });
    });
  }

  /**
   * Resolves once every message the broker queued for this client before now has been delivered
   * (the retained messages of filters subscribed so far included): it publishes a marker on `topic`,
   * which this client must be allowed to write and read, and waits for it to come back — the broker
   * keeps one client's messages in order. Rejects when the marker is refused or does not return in time.
   */
  async sync(topic: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    const marker = randomBytes(8).toString('hex');
    let arrived!: () => void;
    const back = new Promise<void>((resolve) => (arrived = resolve));
    const unsubscribe = await this.subscribe(topic, (message) => {
      if (message.payload.toString('utf8') === marker) arrived();
    });
    try {
      const signal = AbortSignal.any([deadlineSignal(options.timeoutMs), ...(options.signal ? [options.signal] : [])]);
      const ack = await this.publish(topic, marker, { qos: 1, timeoutMs: options.timeoutMs, signal });
      if (ack.reasonCode >= MQTT_REFUSAL)
        throw new Error(
          `the broker ${this.label} refused the marker on ${topic} (reason 0x${ack.reasonCode.toString(16)})`,
        );
      await Promise.race([
        back,
        new Promise<never>((_resolve, reject) =>
          signal.aborted
            ? reject(new Error(`the marker on ${topic} did not come back within ${options.timeoutMs} ms`))
            : signal.addEventListener(
                'abort',
                () => reject(new Error(`the marker on ${topic} did not come back within ${options.timeoutMs} ms`)),
                { once: true },
              ),
        ),
      ]);
    } finally {
      unsubscribe();
    }
  }

  /** Stops reconnecting, drops the connection (no will is sent: this is a goodbye) and every listener. */
  async close(): Promise<void> {
    this.lifetime.abort();
    const client = this.client;
    this.client = undefined;
    if (client) {
      // A goodbye (DISCONNECT: no will) while the connection is healthy; MQTT.js would wait for
      // in-flight acknowledgements first, which a dead broker never sends, so then it is cut at once.
      const polite = client.connected && Object.keys(client.outgoing).length === 0;
      await new Promise<void>((resolve) => client.end(!polite, {}, () => resolve()));
    }
    await this.loop;
    this.setUp(false);
    this.subscriptions.clear();
    this.connection.clear();
    this.problems.clear();
  }

  private async connectLoop(): Promise<void> {
    const interval = this.options.reconnectIntervalMs ?? 1000;
    // MQTT.js (a few hundred ms of module loading) is loaded by the first broker, not by every command.
    const { connect } = await import('mqtt');
    while (!this.lifetime.signal.aborted) {
      await this.connectOnce(connect);
      if (this.lifetime.signal.aborted) return;
      try {
        await abortableDelay(interval, this.lifetime.signal);
      } catch {
        return; // closed while waiting: the loop ends
      }
    }
  }

  /** One connection: resolves when it closes (or never came up). */
  private connectOnce(connect: typeof import('mqtt').connect): Promise<void> {
    const { address, password } = this.options.credentials;
    const will = this.options.will;
    const client = connect({
      protocol: address.protocol,
      host: address.host,
      port: address.port,
      ...(address.username === undefined ? {} : { username: address.username }),
      ...(password === undefined ? {} : { password }),
      clientId: this.clientId,
      protocolVersion: 5,
      clean: true,
      keepalive: this.options.keepaliveSeconds ?? 30,
      connectTimeout: this.options.connectTimeoutMs ?? 5000,
      // Reconnecting is ours: a fresh client per connection keeps no unacknowledged publish to resend.
      reconnectPeriod: 0,
      resubscribe: false,
      queueQoSZero: false,
      ...(will
        ? {
            will: {
              topic: will.topic,
              payload: Buffer.from(will.payload),
              qos: will.qos ?? 1,
              retain: will.retain ?? false,
            },
          }
        : {}),
    });
    this.client = client;
    return new Promise<void>((resolve) => {
      client.on('connect', () => {
        // Small messages go out at once: with Nagle on, a reply waits for the broker's delayed ACK (~40 ms a hop).
        (client.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
        void this.onConnected(client);
      });
      client.on('message', (topic, payload, packet) => {
        const { subscriptionIdentifier, ...properties } = packet.properties ?? {};
        this.deliver(
          { topic, payload, retain: packet.retain, ...(packet.properties ? { properties } : {}) },
          subscriptionIdentifier === undefined ? undefined : [subscriptionIdentifier].flat(),
        );
      });
      client.on('error', (error) => {
        const code = reasonCodeOf(error);
        if (code === 0x86 || code === 0x87 || code === 4 || code === 5)
          this.refusal = `the broker ${this.label} refused the connection: ${error.message.replace(/^Connection refused: /, '')} (reason 0x${code.toString(16)}); ${this.options.credentials.password === undefined ? NO_PASSWORD_GIVEN : PASSWORD_GIVEN}`;
        this.lastTrouble = error.message;
        this.report({ problem: 'connection', detail: `${this.label}: ${error.message}` });
      });
      client.on('close', () => {
        if (this.client === client) this.client = undefined;
        this.setUp(false);
        // Fails every publish still waiting for its PUBACK: this client is never used again.
        client.end(true, {}, () => resolve());
      });
    });
  }

  private async onConnected(client: MqttClient): Promise<void> {
    this.refusal = undefined;
    this.lastTrouble = undefined;
    this.stats.connects += 1;
    const filters = [...new Set([...this.subscriptions].map((subscription) => subscription.filter))];
    // Subscribed before telling anyone it is up, so retained messages reach every listener first.
    await Promise.all(
      filters.map((filter) =>
        this.subscribeOn(client, filter).catch((error: unknown) =>
          this.report({ problem: 'refused_subscription', detail: (error as Error).message }),
        ),
      ),
    );
    if (this.client !== client || !client.connected) return;
    this.setUp(true);
  }

  private subscribeOn(client: MqttClient, filter: string): Promise<void> {
    return new Promise((resolve, reject) => {
      let id = this.filterIds.get(filter);
      if (id === undefined) {
        id = this.filterIds.size + 1;
        this.filterIds.set(filter, id);
      }
      client.subscribe(filter, { qos: 1, properties: { subscriptionIdentifier: id } }, (error, granted) => {
        const code = reasonCodeOf(error) ?? Number(granted?.[0]?.qos ?? 0);
        if (code >= MQTT_REFUSAL)
          return reject(
            new Error(
              `the broker ${this.label} refused the subscription to ${filter} (reason 0x${code.toString(16)}${code === MQTT_NOT_AUTHORIZED ? ', not authorized' : ''})`,
            ),
          );
        if (error) return reject(new Error(`subscribe ${filter} on ${this.label}: ${error.message}`));
        resolve();
      });
    });
  }

  /** `matched`: the subscription identifiers the broker says the message matched (absent: match by topic). */
  private deliver(message: MqttMessage, matched: readonly number[] | undefined): void {
    this.stats.received += 1;
    if (message.payload.length > this.options.maxMessageBytes) {
      this.stats.oversized += 1;
      this.report({
        problem: 'oversized',
        detail: `${message.topic}: ${message.payload.length} bytes > ${this.options.maxMessageBytes}`,
      });
      return;
    }
    for (const subscription of [...this.subscriptions]) {
      const isMatch =
        matched === undefined
          ? topicMatches(subscription.filter, message.topic)
          : matched.includes(this.filterIds.get(subscription.filter) ?? 0);
      if (!isMatch) continue;
      let verdict: MqttListenerVerdict;
      try {
        verdict = subscription.listener(message);
      } catch (error) {
        verdict = { malformed: error instanceof Error ? error.message : String(error) };
      }
      if (verdict && 'malformed' in verdict) {
        this.stats.malformed += 1;
        this.report({ problem: 'malformed', detail: `${message.topic}: ${verdict.malformed}` });
      }
    }
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    this.connection.emit(up);
  }

  private report(problem: MqttProblem): void {
    this.problems.emit(problem);
  }
}

/** What to do when the broker refuses us and a password was given (from its variable or the keychain). */
const PASSWORD_GIVEN =
  "check the user name and the password (the variable --mqtt-password-env names, else the desktop app's Broker password in Settings)";
/** What to do when the broker refuses us and no password was given. */
const NO_PASSWORD_GIVEN =
  "no password was given: name the environment variable that holds it with --mqtt-password-env VAR, or keep it in the desktop app's Settings (Broker password)";

/** The MQTT reason code an MQTT.js error carries (a refused CONNACK, a refused PUBACK), if any. */
function reasonCodeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}
