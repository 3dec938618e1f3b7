import type { DeviceTool } from '../../protocol/frame-schema.ts';
import type { LinkWiring } from '../../links/link-wiring.ts';
import type {
  ConventionCall,
  ConventionDevice,
  ConventionState,
  ConventionUpdate,
} from '../conventions/convention-device.ts';
import { noSuchAction, onArgument, outputArgument, readTool, setTool } from '../conventions/convention-tools.ts';
import { payloadObject, payloadText, topicNameProblem } from '../conventions/payload-text.ts';
import { mqttDeviceId } from '../mqtt-device-id.ts';
import type { Z2mBridgeDevice } from './z2m-bridge-devices.ts';
import { z2mCapabilities, type Z2mReadable, type Z2mSwitchable } from './z2m-exposes.ts';

/** Zigbee2MQTT's base topic (its default; a bridge configured with another one is not found). */
export const Z2M_BASE = 'zigbee2mqtt';
/** Where the bridge lists its devices (retained). */
export const Z2M_DEVICES_TOPIC = `${Z2M_BASE}/bridge/devices`;
/** Where the bridge says it runs (retained): `online`/`offline`, or `{"state":"online"}`. */
export const Z2M_BRIDGE_STATE_TOPIC = `${Z2M_BASE}/bridge/state`;

/** A device Home Agent can offer, or why it cannot. */
export type Z2mReading = { ok: true; device: ConventionDevice } | { ok: false; name: string; why: string };

/**
 * Pure: one entry of `bridge/devices` as a device. Its friendly name gives the path (`z2m:NAME`)
 * and, by `mqttDeviceId`, the id; a light or switch expose makes it a `light` or `switch` with
 * `set`, published state values make `read`. The set payload is exactly `{<property>: <value_on |
 * value_off>}` on `zigbee2mqtt/NAME/set`; the state arrives on `zigbee2mqtt/NAME`.
 */
export function z2mDevice(entry: Z2mBridgeDevice): Z2mReading {
  const name = entry.friendly_name;
  const refuse = (why: string): Z2mReading => ({ ok: false, name, why });
  if (entry.type === 'Coordinator') return refuse('it is the coordinator');
  if (entry.definition === null || entry.supported === false)
    return refuse('Zigbee2MQTT does not support it (no definition)');
  const problem = topicNameProblem(name);
  if (problem) return refuse(`its friendly name cannot be used in a topic: ${problem}`);
  const capabilities = z2mCapabilities(entry.definition.exposes);
  const { switchables, readables } = capabilities;
  const kind = switchables.some((entry) => entry.of === 'light')
    ? 'light'
    : switchables.length > 0
      ? 'switch'
      : readables.length > 0
        ? 'sensor'
        : undefined;
  if (kind === undefined)
    return refuse(
      `it exposes nothing Home Agent uses yet (${capabilities.unsupported.join(', ') || 'no exposes'}); it uses switch and light states and published values`,
    );
  const id = mqttDeviceId('z2m', name);
  const tools: DeviceTool[] = [];
  if (switchables.length > 0)
    tools.push(setTool({ thing: kind, outputs: switchables.map((entry) => entry.property), confirms: true }));
  if (readables.length > 0) tools.push(readTool({ what: readables.map(describeReadable) }));
  const stateTopic = `${Z2M_BASE}/${name}`;
  const availabilityTopic = `${stateTopic}/availability`;
  const gettable = readables.some((readable) => readable.gettable);
  const commandTopics = [
    ...(switchables.length > 0 ? [`${stateTopic}/set`] : []),
    ...(gettable ? [`${stateTopic}/get`] : []),
  ];
  const build = entry.software_build_id ? ` build=${entry.software_build_id}` : '';
  return {
    ok: true,
    device: {
      path: `z2m:${name}`,
      hello: {
        device: {
          id,
          kind,
          model: `${entry.definition.vendor} ${entry.definition.model}`.slice(0, 100),
          firmware: `ieee=${entry.ieee_address}${build}`.slice(0, 100),
        },
        tools,
        concurrent: false,
      },
      topics: [stateTopic, availabilityTopic, Z2M_BRIDGE_STATE_TOPIC],
      baseTopics: [stateTopic],
      commandTopics,
      wiring: wiringOf({ stateTopic, switchables, gettable }),
      availabilityMode: 'all',
      onlineBeforeAvailability: true,
      read(topic, payload): ConventionUpdate | undefined {
        if (topic === stateTopic) {
          const state = payloadObject(payload);
          return state ? { state } : undefined;
        }
        if (topic === availabilityTopic || topic === Z2M_BRIDGE_STATE_TOPIC) {
          const online = z2mAvailability(payload);
          return online === undefined ? undefined : { online, source: topic };
        }
        return undefined;
      },
      call(tool, args): ConventionCall {
        if (tool === 'set' && switchables.length > 0) return setCall({ stateTopic, switchables, args, id });
        if (tool === 'read' && readables.length > 0) return readCall(stateTopic, readables);
        throw noSuchAction(id, tool);
      },
    },
  };
}

/**
 * What decides what its calls publish and how its state is read: its set, get and state topics, and
 * each switchable's `value_on` and `value_off` as JSON (what the set payload carries).
 */
function wiringOf(options: {
  stateTopic: string;
  switchables: readonly Z2mSwitchable[];
  gettable: boolean;
}): LinkWiring {
  const { stateTopic, switchables } = options;
  return [
    ...(switchables.length > 0 ? [{ label: 'set topic', value: `${stateTopic}/set` }] : []),
    ...(options.gettable ? [{ label: 'get topic', value: `${stateTopic}/get` }] : []),
    { label: 'state topic', value: stateTopic },
    ...switchables.flatMap((switchable) => [
      { label: `${switchable.property} value_on`, value: JSON.stringify(switchable.valueOn) },
      { label: `${switchable.property} value_off`, value: JSON.stringify(switchable.valueOff) },
    ]),
  ];
}

/** `{<property>: <value_on | value_off>}` on `zigbee2mqtt/NAME/set`, done when the state says that value. */
function setCall(options: {
  stateTopic: string;
  switchables: readonly Z2mSwitchable[];
  args: Readonly<Record<string, unknown>>;
  id: string;
}): ConventionCall {
  const { switchables, args, id } = options;
  const output = outputArgument(args, switchables, id);
  const on = onArgument(args, id);
  const value = on ? output.valueOn : output.valueOff;
  return {
    kind: 'publish',
    topic: `${options.stateTopic}/set`,
    payload: JSON.stringify({ [output.property]: value }),
    expect: {
      matches: (state) => state[output.property] === value,
      describe: `${output.property} ${JSON.stringify(value)}`,
    },
    answer: ({ confirmed }) => ({
      ...(switchables.length > 1 ? { output: output.property } : {}),
      on,
      confirmed,
    }),
  };
}

/**
 * The exposed values of the last state, and when it came. With no state seen yet (Zigbee2MQTT does
 * not retain states by default), the values the device answers `/get` for are asked for as the
 * documentation says — `{"state": ""}` on `zigbee2mqtt/NAME/get` — and the next state carrying them answers.
 */
function readCall(stateTopic: string, readables: readonly Z2mReadable[]): ConventionCall {
  const answer = ({ state, receivedAt }: { state: ConventionState; receivedAt: Date }): unknown => ({
    ...Object.fromEntries(
      readables.filter((entry) => entry.property in state).map((entry) => [entry.property, state[entry.property]]),
    ),
    as_of: receivedAt.toISOString(),
  });
  const gettable = readables.filter((entry) => entry.gettable).map((entry) => entry.property);
  return {
    kind: 'last-state',
    answer,
    ...(gettable.length > 0
      ? {
          otherwise: {
            kind: 'publish',
            topic: `${stateTopic}/get`,
            payload: JSON.stringify(Object.fromEntries(gettable.map((property) => [property, '']))),
            expect: {
              matches: (state) => gettable.every((property) => property in state),
              describe: `a state with ${gettable.join(', ')}`,
            },
            answer: ({ state }) => answer({ state: state ?? {}, receivedAt: new Date() }),
          },
        }
      : {}),
  };
}

/** `temperature (°C)`, `occupancy (true/false)`. */
function describeReadable(readable: Z2mReadable): string {
  if (readable.unit) return `${readable.property} (${readable.unit})`;
  return readable.property;
}

/**
 * What an availability payload says (docs: guide/configuration/device-availability.md): `online` or
 * `offline`, or with the legacy payload off, `{"state":"online"}`; undefined for anything else.
 */
export function z2mAvailability(payload: Buffer): boolean | undefined {
  const text = payloadText(payload);
  const word = text.startsWith('{') ? payloadObject(payload)?.state : text;
  if (word === 'online') return true;
  if (word === 'offline') return false;
  return undefined;
}
