import type { HelloResult } from '../../protocol/frame-schema.ts';
import type { LinkWiring } from '../../links/link-wiring.ts';

/** What one state message said, as flat keys (`{state: 'ON', power: 12}`, `{POWER: 'ON'}`, `{value: 21.5}`). */
export type ConventionState = Readonly<Record<string, unknown>>;

/** What a message on one of a device's topics tells its link: a state, or whether one source of availability says online. */
export type ConventionUpdate = { state: ConventionState } | { online: boolean; source: string };

/** A state that completes a call, with how to name it when it does not come (`state ON`). */
export interface StateExpectation {
  matches(state: ConventionState): boolean;
  describe: string;
}

/** What one call of a convention device does. */
export type ConventionCall =
  /**
   * Publish exactly `payload` on `topic`; with `expect`, the call completes when a state matching it
   * arrives, without, on the broker's acknowledgement (`confirmed: false`). `answer` is its result.
   */
  | {
      kind: 'publish';
      topic: string;
      payload: string;
      expect?: StateExpectation;
      answer(completion: { confirmed: boolean; state?: ConventionState }): unknown;
    }
  /**
   * Answer from the last state the device published (a sensor's reading), publishing nothing; with
   * none yet, make the `otherwise` call instead when there is one (a request for the state).
   */
  | {
      kind: 'last-state';
      answer(last: { state: ConventionState; receivedAt: Date }): unknown;
      otherwise?: ConventionCall & { kind: 'publish' };
    };

/**
 * One device of a field's convention (Zigbee2MQTT, Tasmota, discovery), as its family read it from
 * the broker: who it is and what it offers (the hello), the topics its link listens to, how to read
 * them, and what each call publishes. Pure: no broker, so every payload is unit-tested.
 */
export interface ConventionDevice {
  /** `z2m:NAME`, `tasmota:TOPIC`, `ha:NODE/OBJECT`. */
  path: string;
  hello: HelloResult;
  /** Topics (no wildcards) the link subscribes to while open: state, availability. */
  topics: string[];
  /**
   * The base topics its discovery names (`zigbee2mqtt/NAME`, a discovery config's `~`): its own
   * topics are under them. Empty when its discovery names none.
   */
  baseTopics: string[];
  /** Every topic a call may publish on: each must be one of its own (own-topics.ts), or it is not offered. */
  commandTopics: string[];
  /**
   * What decides what its calls do besides its tools — command and state topics, payloads, values,
   * templates — labelled as its convention names them: shown at pairing and pinned (a change holds it).
   */
  wiring: LinkWiring;
  /** A room its announcement suggests (Home Assistant's `suggested_area`, checked by the room rule): the person confirms it. */
  suggestedRoom?: string;
  /**
   * How the availability sources combine: `all` must say online (a bridge and its device), `any`,
   * or the `latest` that spoke (discovery's default).
   */
  availabilityMode: 'all' | 'any' | 'latest';
  /** Whether the device counts as online before any availability message came (discovery: not, as Home Assistant does). */
  onlineBeforeAvailability: boolean;
  /** What a message on one of `topics` says, or undefined when it says nothing this device reads. */
  read(topic: string, payload: Buffer): ConventionUpdate | undefined;
  /** The call of `tool` with `args`; throws a ToolError for arguments it cannot send. */
  call(tool: string, args: Readonly<Record<string, unknown>>): ConventionCall;
}
