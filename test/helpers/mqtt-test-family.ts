import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ToolError } from '../../core/tools/tool-error.ts';
import { DeviceLinkBase } from '../../devices/links/device-link-base.ts';
import type { CallOptions, LinkDefaults } from '../../devices/links/session-types.ts';
import { MqttBroker, type MqttMessage } from '../../devices/mqtt/mqtt-broker.ts';
import type {
  FoundMqttDevice,
  MqttDeviceFamily,
  MqttFamilyContext,
  MqttLinkRequest,
} from '../../devices/mqtt/mqtt-device-family.ts';
import { readMqttCredentials } from '../../devices/mqtt/mqtt-url.ts';
import { publishCall } from '../../devices/mqtt/publish-call.ts';
import { parseJsonLine } from '../../devices/protocol/parse-json-line.ts';
import { helloResultSchema, type HelloResult } from '../../devices/protocol/frame-schema.ts';

/*
 * A device family for tests only, not in the product: it lets the MQTT way in be tested end to end
 * before the real families exist. Under `{prefix}/test/{ID}/`: `description` (retained hello JSON),
 * `availability` (retained `online`/`offline`, the device's will says `offline`), `request`
 * (`{tool, args}` with an MQTT 5 response topic and correlation data) and the response
 * (`{ok: true, result}` or `{ok: false, error}`). Paths are `mqtt:test/ID`.
 */

const requestSchema = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) });
const responseSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);

const topicsOf = (prefix: string, id: string) => {
  const root = `${prefix}/test/${id}`;
  return {
    description: `${root}/description`,
    availability: `${root}/availability`,
    request: `${root}/request`,
    response: `${root}/response`,
  };
};

/** The test family: what it finds on `{prefix}/test/+/description` and `…/availability`. */
export function testMqttFamily(context: MqttFamilyContext): MqttDeviceFamily {
  const descriptions = new Map<string, HelloResult>();
  const available = new Map<string, boolean>();
  const idOf = (topic: string) => topic.split('/').at(-2) ?? '';
  return {
    source: 'mqtt',
    discoveryTopics: () => [`${context.topicPrefix}/test/+/description`, `${context.topicPrefix}/test/+/availability`],
    receive: (message) => {
      const id = idOf(message.topic);
      if (message.topic.endsWith('/availability')) {
        available.set(id, message.payload.toString('utf8') === 'online');
        return undefined;
      }
      if (message.payload.length === 0) {
        descriptions.delete(id);
        return undefined;
      }
      const hello = parseHello(message.payload, context.maxMessageBytes);
      if (typeof hello === 'string') return { malformed: hello };
      descriptions.set(id, hello);
      return undefined;
    },
    found: () =>
      [...descriptions].map(([id, hello]): FoundMqttDevice => ({
        path: `mqtt:test/${id}`,
        hello,
        online: available.get(id) === true,
      })),
    openLink: (request) => new TestFamilyLink(request, context),
  };
}

function parseHello(payload: Buffer, maxBytes: number): HelloResult | string {
  const json = parseJsonLine(payload.toString('utf8'), maxBytes);
  if (!json.ok) return json.detail;
  const hello = helloResultSchema.safeParse(json.value);
  return hello.success ? hello.data : z.prettifyError(hello.error);
}

/** A link to one device of the test family: online while the broker is up, the device says online and described itself. */
class TestFamilyLink extends DeviceLinkBase {
  private readonly topics: ReturnType<typeof topicsOf>;
  private readonly broker: MqttBroker;
  private readonly defaults: LinkDefaults;
  private readonly stops: (() => void)[] = [];
  private readonly pending = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private description: HelloResult | undefined;
  private availability = false;

  constructor(
    request: MqttLinkRequest,
    private readonly context: MqttFamilyContext,
  ) {
    super(request.path);
    this.topics = topicsOf(context.topicPrefix, request.path.slice('mqtt:test/'.length));
    this.broker = request.broker;
    this.defaults = request.defaults;
  }

  start(): void {
    this.stops.push(this.broker.onConnection(() => this.update()));
    const subscribe = (topic: string, listener: (message: MqttMessage) => { malformed: string } | undefined) =>
      this.broker
        .subscribe(topic, listener)
        .then((stop) => (this.status === 'closed' ? stop() : this.stops.push(stop)))
        .catch((error: unknown) => this.reportProblem({ problem: 'connection', detail: (error as Error).message }));
    void subscribe(this.topics.description, (message) => {
      const hello = parseHello(message.payload, this.context.maxMessageBytes);
      if (typeof hello === 'string') return { malformed: hello };
      this.description = hello;
      this.update();
      return undefined;
    });
    void subscribe(this.topics.availability, (message) => {
      this.availability = message.payload.toString('utf8') === 'online';
      this.update();
      return undefined;
    });
    void subscribe(this.topics.response, (message) => {
      const waiting = this.pending.get(message.properties?.correlationData?.toString('hex') ?? '');
      if (waiting === undefined) return undefined;
      const json = parseJsonLine(message.payload.toString('utf8'), this.context.maxMessageBytes);
      const response = json.ok ? responseSchema.safeParse(json.value) : undefined;
      if (!response?.success) return { malformed: 'not a response' };
      if (response.data.ok) waiting.resolve(response.data.result);
      else waiting.reject(new ToolError({ reason: 'failed', detail: response.data.error.message }));
      return undefined;
    });
    this.update();
  }

  async call(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const hello = await this.helloFor(tool, { waitMs: this.defaults.helloTimeoutMs ?? 2000, signal: options.signal });
    const correlation = randomBytes(8).toString('hex');
    const timeoutMs = options.timeoutMs ?? this.defaults.callTimeoutMs ?? 5000;
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ToolError({ reason: 'timeout', detail: `${hello.device.id}: no answer in ${timeoutMs} ms` })),
        timeoutMs,
      );
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(correlation);
      };
      this.pending.set(correlation, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error)),
      });
    });
    // Settled by whoever comes first; a rejection nobody awaits yet is not an unhandled one.
    answer.catch(() => undefined);
    try {
      await publishCall({
        broker: this.broker,
        topic: this.topics.request,
        payload: JSON.stringify({ tool, args }),
        properties: { responseTopic: this.topics.response, correlationData: Buffer.from(correlation, 'hex') },
        deviceId: hello.device.id,
        timeoutMs,
        signal: options.signal,
        onSent: options.onSent,
      });
    } catch (error) {
      this.pending.get(correlation)?.reject(error as Error);
      throw error;
    }
    return answer;
  }

  async dispose(): Promise<void> {
    this.lifetime.abort();
    this.failPending('link closed');
    this.setStatus('closed');
    for (const stop of this.stops.splice(0)) stop();
    this.clearListeners();
  }

  private update(): void {
    if (this.status === 'closed') return;
    if (this.broker.connected && this.availability && this.description) {
      if (this.status !== 'online' || this.hello !== this.description) this.goOnline(this.description);
      return;
    }
    if (this.status === 'online') {
      this.setStatus('offline');
      this.failPending(this.broker.connected ? 'the device went offline' : 'the broker connection dropped');
    }
  }

  private failPending(why: string): void {
    for (const waiting of [...this.pending.values()])
      waiting.reject(new ToolError({ reason: 'device_offline', detail: `${this.label}: ${why}` }));
  }
}

/** The device side of the test family: one device on its own broker connection, answering requests. */
export class TestMqttDevice {
  private held: (() => void)[] = [];
  private readonly arrivals = new Set<() => void>();
  private holding = false;
  readonly requests: { tool: string; args: Record<string, unknown> }[] = [];

  private constructor(
    readonly broker: MqttBroker,
    private readonly topics: ReturnType<typeof topicsOf>,
  ) {}

  /** Connects (its will: availability `offline`), answers requests with `answer`, and announces itself online. */
  static async start(options: {
    url: string;
    password: string;
    prefix: string;
    hello: HelloResult;
    answer?: (tool: string, args: Record<string, unknown>) => unknown;
  }): Promise<TestMqttDevice> {
    const topics = topicsOf(options.prefix, options.hello.device.id);
    const broker = new MqttBroker({
      credentials: readMqttCredentials({ url: options.url, passwordEnv: 'PW', env: { PW: options.password } }),
      maxMessageBytes: 65_536,
      reconnectIntervalMs: 20,
      will: { topic: topics.availability, payload: 'offline', retain: true },
    });
    const device = new TestMqttDevice(broker, topics);
    await broker.subscribe(topics.request, (message) => {
      const json = parseJsonLine(message.payload.toString('utf8'), 65_536);
      const request = json.ok ? requestSchema.safeParse(json.value) : undefined;
      if (!request?.success) return { malformed: 'not a request' };
      device.requests.push(request.data);
      for (const check of [...device.arrivals]) check();
      const reply = () => {
        const result = options.answer ? options.answer(request.data.tool, request.data.args) : { done: true };
        void broker
          .publish(message.properties?.responseTopic ?? topics.response, JSON.stringify({ ok: true, result }), {
            properties: {
              ...(message.properties?.correlationData ? { correlationData: message.properties.correlationData } : {}),
            },
          })
          .catch(() => undefined);
      };
      if (device.holding) device.held.push(reply);
      else reply();
      return undefined;
    });
    await broker.connect({ timeoutMs: 10_000 });
    await broker.publish(topics.description, JSON.stringify(options.hello), { retain: true });
    await broker.publish(topics.availability, 'online', { retain: true });
    return device;
  }

  /** Keeps requests unanswered until the returned function is called. */
  hold(): () => void {
    this.holding = true;
    return () => {
      this.holding = false;
      for (const reply of this.held.splice(0)) reply();
    };
  }

  /** Resolves once `count` requests have arrived (those already here count). */
  whenRequests(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.requests.length < count) return;
        this.arrivals.delete(check);
        resolve();
      };
      this.arrivals.add(check);
      check();
    });
  }

  /** Says it is offline (retained), as a device going away politely. */
  async goOffline(): Promise<void> {
    await this.broker.publish(this.topics.availability, 'offline', { retain: true });
  }

  /** Removes its retained description and availability and disconnects. */
  async remove(): Promise<void> {
    // After a broker restart its connection may still be on its way back.
    await this.broker.connect({ timeoutMs: 10_000 });
    await this.broker.publish(this.topics.description, '', { retain: true });
    await this.broker.publish(this.topics.availability, '', { retain: true });
    await this.close();
  }

  async close(): Promise<void> {
    await this.broker.close();
  }
}
