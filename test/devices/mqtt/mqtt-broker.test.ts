import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MQTT_NOT_AUTHORIZED,
  MqttBroker,
  MqttPublishError,
  type MqttMessage,
  type MqttProblem,
} from '../../../devices/mqtt/mqtt-broker.ts';
import { readMqttCredentials } from '../../../devices/mqtt/mqtt-url.ts';
import { entryCommand } from '../../helpers/compiled-entries.ts';
import { REPO_ROOT } from '../../helpers/run-cli.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../../helpers/mosquitto.ts';

const missing = mosquittoMissing();
const ENV = {
  HOST_PW: TEST_USERS.host.password,
  INTRUDER_PW: TEST_USERS.intruder.password,
  BAD_PW: 'not-the-password',
};

describe.skipIf(missing !== undefined)(`MqttBroker against Mosquitto${missing ? ` (${missing})` : ''}`, () => {
  let mosquitto: Mosquitto;
  const open: MqttBroker[] = [];

  beforeAll(async () => {
    mosquitto = await startMosquitto();
  });
  afterAll(async () => {
    await mosquitto.stop();
  });
  afterEach(async () => {
    for (const broker of open.splice(0)) await broker.close();
  });

  function broker(user: 'host' | 'intruder', options: { passwordEnv?: string; maxMessageBytes?: number } = {}) {
    const made = new MqttBroker({
      credentials: readMqttCredentials({
        url: mosquitto.url(user),
        passwordEnv: options.passwordEnv ?? (user === 'host' ? 'HOST_PW' : 'INTRUDER_PW'),
        env: ENV,
      }),
      maxMessageBytes: options.maxMessageBytes ?? 1024,
      reconnectIntervalMs: 20,
    });
    open.push(made);
    return made;
  }

  /** Subscribes `filter`; once granted, resolves with `next`: the next `count` messages on it. */
  async function collect(made: MqttBroker, filter: string, count: number): Promise<{ next: Promise<MqttMessage[]> }> {
    const messages: MqttMessage[] = [];
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    await made.subscribe(filter, (message) => {
      messages.push(message);
      if (messages.length === count) done();
    });
    return { next: all.then(() => messages) };
  }

  it('connects with the password from the environment, and a QoS 1 publish resolves on PUBACK with MQTT 5 properties delivered', async () => {
    const host = broker('host');
    await host.connect({ timeoutMs: 5000 });
    const received = await collect(host, 'test/+/echo', 1);
    const ack = await host.publish('test/a/echo', '{"x":1}', {
      properties: { responseTopic: 'test/a/reply', correlationData: Buffer.from('c-1') },
    });
    expect(ack.reasonCode).toBe(0);
    const [message] = await received.next;
    expect(message?.topic).toBe('test/a/echo');
    expect(message?.payload.toString()).toBe('{"x":1}');
    expect(message?.properties?.responseTopic).toBe('test/a/reply');
    expect(message?.properties?.correlationData?.toString()).toBe('c-1');
    expect(host.stats.connects).toBe(1);
  });

  it('rejects at once, naming the refusal, when the broker refuses the password', async () => {
    const wrong = broker('host', { passwordEnv: 'BAD_PW' });
    await expect(wrong.connect({ timeoutMs: 30_000 })).rejects.toThrow(
      /the broker mqtt:\/\/host@127\.0\.0\.1:\d+ refused the connection: .* \(reason 0x8[67]\); check the user name/,
    );
  });

  it('names the last trouble when nothing answers within the timeout', async () => {
    const nowhere = new MqttBroker({
      credentials: readMqttCredentials({ url: `mqtt://host@127.0.0.1:1` }),
      maxMessageBytes: 1024,
      reconnectIntervalMs: 20,
    });
    open.push(nowhere);
    await expect(nowhere.connect({ timeoutMs: 300 })).rejects.toThrow(
      /no connection to the broker mqtt:\/\/host@127\.0\.0\.1:1 within 300 ms \(last: .*ECONNREFUSED/,
    );
  });

  it('says at once that nothing listens where the broker should be, however long the caller would wait', async () => {
    const closed = new MqttBroker({
      credentials: readMqttCredentials({ url: `mqtt://host@127.0.0.1:1` }),
      maxMessageBytes: 1024,
    });
    open.push(closed);
    // Without the fail-fast this waits the whole minute and the test times out.
    await expect(closed.connect({ timeoutMs: 60_000 })).rejects.toThrow(
      'the broker mqtt://host@127.0.0.1:1 is not reachable (connect ECONNREFUSED 127.0.0.1:1): is it running, and is the address right?',
    );
  });

  it('resolves a publish the ACL denies with 0x87 (not authorized) and delivers nothing; a message matching two filters reaches each once', async () => {
    const host = broker('host');
    await host.connect({ timeoutMs: 5000 });
    const seen: string[] = [];
    await host.subscribe('home-agent/#', (message) => void seen.push(message.topic));
    const intruder = broker('intruder');
    await intruder.connect({ timeoutMs: 5000 });
    const ack = await intruder.publish('home-agent/cellar/relay-1/request', '{}');
    expect(ack.reasonCode).toBe(MQTT_NOT_AUTHORIZED);
    // A marker through the same broker after the denied publish: everything before it has arrived.
    await host.sync('home-agent/sync', { timeoutMs: 5000 });
    expect(seen).toEqual(['home-agent/sync']);
  });

  it('counts and drops a message over maxMessageBytes and one a listener finds malformed, and delivers the next', async () => {
    const host = broker('host', { maxMessageBytes: 16 });
    await host.connect({ timeoutMs: 5000 });
    const problems: MqttProblem[] = [];
    host.onProblem((problem) => void problems.push(problem));
    const taken: string[] = [];
    await host.subscribe('test/limits', (message) => {
      const text = message.payload.toString();
      if (!text.startsWith('{')) return { malformed: 'not JSON' };
      taken.push(text);
      return undefined;
    });
    const publisher = broker('host', { maxMessageBytes: 1024 });
    await publisher.connect({ timeoutMs: 5000 });
    await publisher.publish('test/limits', `{"pad":"${'x'.repeat(20)}"}`);
    await publisher.publish('test/limits', 'garbage');
    await publisher.publish('test/limits', '{"ok":1}');
    await host.sync('test/limits-sync', { timeoutMs: 5000 });
    expect(taken).toEqual(['{"ok":1}']);
    expect(host.stats).toMatchObject({ received: 4, oversized: 1, malformed: 1 });
    expect(problems).toEqual([
      { problem: 'oversized', detail: 'test/limits: 30 bytes > 16' },
      { problem: 'malformed', detail: 'test/limits: not JSON' },
    ]);
  });

  it('refuses to publish more than maxMessageBytes, before anything is sent', async () => {
    const host = broker('host', { maxMessageBytes: 8 });
    await host.connect({ timeoutMs: 5000 });
    const refused = await host.publish('test/big', '123456789').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MqttPublishError);
    expect(refused).toMatchObject({ written: false, message: 'a message of 9 bytes is over the limit of 8' });
  });

  it('rejects a publish while disconnected as never written, reconnects after a restart and subscribes again', async () => {
    const host = broker('host');
    await host.connect({ timeoutMs: 5000 });
    const got: string[] = [];
    await host.subscribe('test/after-restart', (message) => void got.push(message.payload.toString()));
    const down = new Promise<void>((resolve) => host.onConnection((up) => !up && resolve()));
    await mosquitto.stopBroker();
    await down;
    expect(host.connected).toBe(false);
    const notSent = await host.publish('test/after-restart', 'lost').catch((error: unknown) => error);
    expect(notSent).toMatchObject({ name: 'MqttPublishError', written: false });
    const up = new Promise<void>((resolve) => host.onConnection((isUp) => isUp && resolve()));
    await mosquitto.start();
    await up;
    await host.publish('test/after-restart', 'again');
    await host.sync('test/restart-sync', { timeoutMs: 5000 });
    expect(got).toEqual(['again']);
    expect(host.stats.connects).toBe(2);
  });

  it('rejects a publish whose PUBACK never comes because the broker died, as written (it may have arrived)', async () => {
    const host = broker('host');
    await host.connect({ timeoutMs: 5000 });
    mosquitto.freeze();
    const pending = host.publish('test/frozen', 'maybe').catch((error: unknown) => error);
    await mosquitto.kill();
    const lost = await pending;
    expect(lost).toBeInstanceOf(MqttPublishError);
    expect(lost).toMatchObject({ written: true });
    await mosquitto.start();
    await host.connect({ timeoutMs: 5000 });
  });

  it('has the broker publish its will when the connection drops without a goodbye, and none after close()', async () => {
    const host = broker('host');
    await host.connect({ timeoutMs: 5000 });
    const wills: string[] = [];
    let firstWill!: () => void;
    const willArrived = new Promise<void>((resolve) => (firstWill = resolve));
    await host.subscribe('test/will/+', (message) => {
      wills.push(`${message.topic}=${message.payload.toString()}`);
      firstWill();
    });

    const child = spawn(process.execPath, entryCommand('test/helpers/mqtt-will-client.ts'), {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        MQTT_URL: mosquitto.url('host'),
        MQTT_PASSWORD_ENV: 'HOST_PW',
        ...ENV,
        WILL_TOPIC: 'test/will/killed',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('connected') && resolve()),
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const polite = new MqttBroker({
      credentials: readMqttCredentials({ url: mosquitto.url('host'), passwordEnv: 'HOST_PW', env: ENV }),
      maxMessageBytes: 1024,
      will: { topic: 'test/will/closed', payload: 'gone' },
    });
    await polite.connect({ timeoutMs: 5000 });
    await polite.close();

    // The killed client's will comes once the broker sees its socket close; after it, a marker.
    await willArrived;
    await host.sync('test/will-sync', { timeoutMs: 5000 });
    expect(wills).toEqual(['test/will/killed=gone']);
  });
});
