import type { DeviceLink } from '../links/device-link.ts';
import type { LinkDefaults } from '../links/session-types.ts';
import type { WayInOptions } from '../links/way-in.ts';
import type { HelloResult } from '../protocol/frame-schema.ts';
import type { MqttBroker, MqttListenerVerdict, MqttMessage } from './mqtt-broker.ts';
import type { TopicBook } from './conventions/topic-book.ts';
import type { LinkWiring } from '../links/link-wiring.ts';

/** The conventions of devices on a broker, each its paths' prefix (`z2m:kitchen-lamp`) and the scan's SOURCE column. */
export const MQTT_SOURCES = ['mqtt', 'z2m', 'tasmota', 'ha'] as const;
/** What each source means, for the legend of `devices scan`. */
export const MQTT_SOURCE_MEANINGS: Readonly<Record<MqttSource, string>> = {
  mqtt: 'a device of a Home Agent bridge',
  z2m: 'a Zigbee2MQTT device',
  tasmota: 'a Tasmota device',
  ha: 'a device announced by Home Assistant MQTT discovery',
};
/** The convention a family follows. */
export type MqttSource = (typeof MQTT_SOURCES)[number];

/** One device a family found on the broker. */
export interface FoundMqttDevice {
  /** `SOURCE:REST` (`mqtt:cellar/relay-1`, `z2m:kitchen-lamp`): what a person pairs. */
  path: string;
  /** Its identity and tools (`readOnly` on tools that only read), as pairing shows them. */
  hello: HelloResult;
  /** Whether the device is reachable now, as its family's availability says. */
  online: boolean;
  /** Where its commands go and what they send, when its family reads that from its announcement: shown and pinned. */
  wiring?: LinkWiring;
  /** A room its announcement suggests, for the person to confirm at pairing. */
  suggestedRoom?: string;
}

/** An announcement a family read but does not offer: the name it goes by (a path where it has one) and why. */
export interface RefusedMqttDevice {
  name: string;
  why: string;
}

/** What every family of one way in shares: where its own topics live and how large a message may be. */
/**
 * The most devices one family keeps found: a peer on the broker may announce without end, so
 * announcements of new devices past it are ignored (a bridged description: refused as malformed).
 */
export const MAX_FOUND_DEVICES = 1000;

export interface MqttFamilyContext {
  /** The first level of Home Agent's own topics (`home-agent`, setting `mqttTopicPrefix`). */
  topicPrefix: string;
  /** The largest payload a message may have (setting `mqttMaxMessageBytes`); larger ones are never seen. */
  maxMessageBytes: number;
  /** The base topics every family of this way in announces (so no device publishes under another's); absent: each its own. */
  topicBook?: TopicBook;
}

/** What a family's link is opened with. */
export interface MqttLinkRequest {
  path: string;
  /** The options kept with the pairing (what `pair` returned, if anything). */
  options: WayInOptions;
  broker: MqttBroker;
  defaults: LinkDefaults;
}

/**
 * One convention of devices on a broker: bridged (`mqtt:`), Zigbee2MQTT (`z2m:`), Tasmota
 * (`tasmota:`), Home Assistant discovery (`ha:`). The MQTT way in subscribes its discovery topics,
 * passes it their messages, lists what it found, and asks it for a link to a paired device.
 */
export interface MqttDeviceFamily {
  readonly source: MqttSource;
  /** Topic filters that discover this family's devices (retained descriptions, bridge device lists, configs). */
  discoveryTopics(): string[];
  /**
   * A message on one of those topics; the family keeps what it found (and forgets what was removed).
   * Returns `{malformed: why}` for a message it cannot read: the broker counts and reports it.
   */
  receive(message: MqttMessage): MqttListenerVerdict;
  /** The devices found so far. */
  found(): FoundMqttDevice[];
  /** Optional: what was announced but is not offered, each with why (`devices scan` says so on stderr). */
  refused?(): RefusedMqttDevice[];
  /**
   * Optional: whether pairing the found device at `path` needs a one-time code now (its `pair` step
   * takes one and this host holds no agreement that serves it).
   */
  needsCode?(path: string): boolean;
  /**
   * Optional: what the found device at `path` declares, as its source signs it (a bridge's signed
   * hello, asked with what `pair` kept), for a family whose announcements nobody signs. The probe
   * shows and pins this, never the announcement; an announcement that disagrees with it is refused
   * (rejects saying what differs, and `refused` lists it until the next announcement).
   */
  signedHello?(request: {
    path: string;
    announced: HelloResult;
    kept: WayInOptions;
    broker: MqttBroker;
    defaults: LinkDefaults;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
  }): Promise<HelloResult>;
  /** A link to one found (and paired) device through `broker`, not started; each device is its own lane. */
  openLink(request: MqttLinkRequest): DeviceLink;
  /**
   * Optional: a one-time step pairing needs (the bridged family's pairing code). `code` is never
   * stored; what it returns is kept with the pairing as its options and given back to `openLink`.
   */
  pair?(request: {
    path: string;
    code: string | undefined;
    /** What the other pairings of this family kept (their paths), so one agreement serves a bridge's every device. */
    beside?: readonly { path: string; kept: WayInOptions }[];
    broker: MqttBroker;
    signal: AbortSignal;
  }): Promise<WayInOptions | undefined>;
}

/** Makes one family for one way in (each way in keeps its own found devices). */
export type MqttDeviceFamilyFactory = (context: MqttFamilyContext) => MqttDeviceFamily;
