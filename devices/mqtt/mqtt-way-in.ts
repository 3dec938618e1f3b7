import { z } from 'zod';
import type { DeviceLink } from '../links/device-link.ts';
import type { LinkDefaults } from '../links/session-types.ts';
import type {
  LinkRequest,
  ProbeResult,
  RefusedScannedDevice,
  ScannedDevice,
  WayIn,
  WayInConnections,
  WayInOptions,
} from '../links/way-in.ts';
import { MqttBroker } from './mqtt-broker.ts';
import {
  MQTT_SOURCE_MEANINGS,
  MQTT_SOURCES,
  type FoundMqttDevice,
  type MqttDeviceFamily,
  type MqttDeviceFamilyFactory,
} from './mqtt-device-family.ts';
import type { mqttSecrets, MqttBrokerSettings } from './mqtt-settings.ts';
import { readMqttCredentials } from './mqtt-url.ts';
import { NoBrokerLink } from './no-broker-link.ts';
import { TopicBook } from './conventions/topic-book.ts';
import { deadlineSignal } from '../../core/text/deadline-signal.ts';

/** The broker the MQTT way in reaches, from its settings (mqtt-settings.ts). */
export type MqttWayInBroker = MqttBrokerSettings;

/** Options of the MQTT way in. */
export interface MqttWayInOptions {
  /** Absent: no broker is configured; paired devices stay offline saying so, and scanning refuses. */
  broker?: MqttWayInBroker | undefined;
  families: readonly MqttDeviceFamilyFactory[];
  /** Where the password variable is read (default: the process's environment). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The way in's secrets the front end keeps (the desktop app's keychain), by name (mqtt-settings.ts):
   * the broker password when no variable names it. Absent: the front end keeps none.
   */
  secret?: (name: keyof typeof mqttSecrets) => string | undefined;
  /** Shorter waits (tests). */
  timings?: { connectTimeoutMs?: number; reconnectIntervalMs?: number };
}

/** A device path behind a broker: one of the families' prefixes, a colon, the rest (`z2m:kitchen-lamp`). */
const MQTT_PATH = new RegExp(`^(${MQTT_SOURCES.join('|')}):.+`);

/**
 * The options a pairing through a broker keeps: what the family's one-time pairing step returned (the
 * bridged family's agreement), never the code a person typed, never a password.
 */
export const mqttOptionsSchema = z
  .strictObject({
    pairing: z.record(z.string(), z.unknown()).optional().meta({ kept: true }),
  })
  .meta({ title: 'MQTT' });

const NO_BROKER = 'no MQTT broker is configured: start with --mqtt mqtt://USER@HOST:PORT (setting mqttUrl)';

/**
 * The MQTT way in (kind `mqtt`): devices behind one broker, found by its families (bridged,
 * Zigbee2MQTT, Tasmota, Home Assistant discovery) on their discovery topics. It claims the paths of
 * those families, probes only a path its families found (what its scan lists), and gives each device
 * its own lane: a batch over several devices runs in parallel.
 */
export function mqttWayIn(options: MqttWayInOptions): WayIn {
  return {
    kind: 'mqtt',
    label: 'MQTT',
    optionsSchema: mqttOptionsSchema,
    namesItsPaths: true,
    sourceMeanings: MQTT_SOURCE_MEANINGS,
    claims: ({ path }) => path !== undefined && MQTT_PATH.test(path),
    // Each device its own lane: nothing is shared but the broker connection, which takes many calls at once.
    placement: (path) => ({ path, address: path }),
    sharingProblem: () => '',
    describe: () => '',
    connect: (defaults) =>
      options.broker === undefined ? noBrokerConnections() : new MqttConnections(options, options.broker, defaults),
  };
}

/** The connections of an MQTT way in without a broker: links offline saying why, probes refused, nothing to scan. */
function noBrokerConnections(): WayInConnections {
  return {
    open: (request) => new NoBrokerLink(request.path, NO_BROKER),
    probe: () => Promise.reject(new Error(NO_BROKER)),
  };
}

/** One broker connection for one registry, its families subscribed to their discovery topics. */
class MqttConnections implements WayInConnections {
  private readonly broker: MqttBroker;
  private readonly families: MqttDeviceFamily[];
  private readonly subscribed: Promise<unknown>;

  constructor(
    options: MqttWayInOptions,
    private readonly settings: MqttWayInBroker,
    private readonly defaults: LinkDefaults,
  ) {
    this.broker = new MqttBroker({
      credentials: readMqttCredentials({
        url: settings.url,
        passwordEnv: settings.passwordEnv,
        ...(options.env ? { env: options.env } : {}),
        ...(options.secret ? { keptPassword: () => options.secret?.('mqttPassword') } : {}),
      }),
      maxMessageBytes: settings.maxMessageBytes,
      ...(options.timings?.connectTimeoutMs !== undefined
        ? { connectTimeoutMs: options.timings.connectTimeoutMs }
        : {}),
      ...(options.timings?.reconnectIntervalMs !== undefined
        ? { reconnectIntervalMs: options.timings.reconnectIntervalMs }
        : {}),
    });
    const context = {
      topicPrefix: settings.topicPrefix,
      maxMessageBytes: settings.maxMessageBytes,
      topicBook: new TopicBook(),
    };
    this.families = options.families.map((make) => make(context));
    // Asked before connecting, so the first connection subscribes them and retained descriptions arrive at once.
    this.subscribed = Promise.all(
      this.families.flatMap((family) =>
        family.discoveryTopics().map((topic) => this.broker.subscribe(topic, (message) => family.receive(message))),
      ),
    );
    this.broker.start();
  }

  open(request: LinkRequest): DeviceLink {
    const family = this.familyOf(request.path);
    const kept = request.options.pairing;
    return family.openLink({
      path: request.path,
      options: typeof kept === 'object' && kept !== null ? (kept as Record<string, unknown>) : {},
      broker: this.broker,
      defaults: this.defaults,
    });
  }

  async probe(request: LinkRequest, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ProbeResult> {
    await this.ready(options);
    const family = this.familyOf(request.path);
    const found = family.found().find((device) => device.path === request.path);
    if (found === undefined)
      throw new Error(
        `${request.path} is not among the devices the broker ${this.broker.label} announces (home-agent devices scan --mqtt URL lists them)`,
      );
    if (request.pairingCode !== undefined && family.pair === undefined)
      throw new Error(`${request.path} takes no pairing code: pair it without --code`);
    const kept = family.pair
      ? await family.pair({
          path: request.path,
          code: request.pairingCode,
          beside: (request.pairedBeside ?? []).flatMap((other) => {
            const kept = other.options.pairing;
            return typeof kept === 'object' && kept !== null && other.path.startsWith(`${family.source}:`)
              ? [{ path: other.path, kept: kept as WayInOptions }]
              : [];
          }),
          broker: this.broker,
          signal: options.signal ?? deadlineSignal(options.timeoutMs),
        })
      : undefined;
    // Where its source signs what it declares, that is what is shown and pinned, never the announcement.
    const hello =
      family.signedHello === undefined
        ? found.hello
        : await family.signedHello({
            path: request.path,
            announced: found.hello,
            kept: kept ?? {},
            broker: this.broker,
            defaults: this.defaults,
            timeoutMs: options.timeoutMs,
            signal: options.signal,
          });
    return {
      hello,
      options: kept === undefined ? {} : { pairing: kept },
      details: [`${describeFound(found)} through the broker ${this.broker.label}`],
      ...(found.wiring ? { wiring: found.wiring } : {}),
      ...(found.suggestedRoom !== undefined ? { suggestedRoom: found.suggestedRoom } : {}),
    };
  }

  async scan(options: { timeoutMs: number; signal?: AbortSignal }): Promise<ScannedDevice[]> {
    await this.ready(options);
    return this.families.flatMap((family) =>
      family.found().map((device) => ({
        path: device.path,
        source: family.source,
        identity: device.hello.device,
        online: device.online,
        ...(family.needsCode?.(device.path) === true ? { needsCode: true as const } : {}),
      })),
    );
  }

  refused(): RefusedScannedDevice[] {
    return this.families.flatMap((family) =>
      (family.refused?.() ?? []).map((refused) => ({ ...refused, source: family.source })),
    );
  }

  async dispose(): Promise<void> {
    await this.broker.close();
  }

  /**
   * Connected, and every retained discovery message the broker had for us delivered: a marker on a
   * topic of this host's own comes back after them (the broker keeps one client's messages in order).
   */
  private async ready(options: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    await this.broker.connect(options);
    await this.subscribed;
    const topic = `${this.settings.topicPrefix}/sync/${this.broker.clientId}`;
    await this.broker.sync(topic, options).catch((error: unknown) => {
      throw new Error(
        `${(error as Error).message}; the broker's ACL must let this user read and write ${this.settings.topicPrefix}/#`,
      );
    });
  }

  private familyOf(path: string): MqttDeviceFamily {
    const source = path.slice(0, path.indexOf(':'));
    const family = this.families.find((candidate) => candidate.source === source);
    if (family === undefined)
      throw new Error(
        `${path}: no MQTT device family reads ${source}: paths (these do: ${this.families.map((candidate) => `${candidate.source}:`).join(', ') || 'none'})`,
      );
    return family;
  }
}

/** `online z2m device kitchen-lamp` for the probe's details. */
function describeFound(found: FoundMqttDevice): string {
  return `${found.online ? 'online' : 'offline now'}: ${found.hello.device.kind} ${found.hello.device.id}`;
}
