import type { DeviceTool } from '../../protocol/frame-schema.ts';
import type { LinkWiring } from '../../links/link-wiring.ts';
import type {
  ConventionCall,
  ConventionDevice,
  ConventionState,
  ConventionUpdate,
} from '../conventions/convention-device.ts';
import { noSuchAction, onArgument, readTool, setTool } from '../conventions/convention-tools.ts';
import { payloadJson, payloadObject, payloadText, topicNameProblem } from '../conventions/payload-text.ts';
import { mqttDeviceId } from '../mqtt-device-id.ts';
import { roomNameSchema } from '../../../core/text/room-name.ts';
import { expandHaConfig, haConfigSchema, type HaConfig } from './ha-config.ts';
import type { HaDiscoveryPlace } from './ha-discovery-topic.ts';
import { applyHaValueTemplate, parseHaValueTemplate, type HaValueTemplate } from './ha-value-template.ts';

/** The components this host offers. */
export const HA_COMPONENTS = ['switch', 'light', 'sensor'] as const;

/** What one discovery config says: a device, its removal (an empty payload), or why it is not offered. */
export type HaReading =
  { ok: true; device: ConventionDevice } | { ok: false; removed: true } | { ok: false; removed?: false; why: string };

/**
 * Pure: a discovery config as a device at `ha:[NODE/]OBJECT`, of kind switch, light or sensor. A
 * switch or light with a `command_topic` gets `set`, which publishes exactly `payload_on` or
 * `payload_off` there; with a `state_topic` it completes when the state (through `value_template`,
 * a light's `state_value_template`) equals `state_on`/`state_off` (a light: its payloads), and
 * without one on the broker's acknowledgement, unconfirmed. A state topic gives `read` (the last
 * state). An empty payload removes the device. What is not offered, and why: components other than
 * these three, device-based discovery, a light of the `json` or `template` schema, a
 * `command_template`, availability templates, and any value template beyond `{{ value }}` and
 * `{{ value_json.a.b }}` — each would need a template engine to send or read the right thing.
 */
export function haDevice(place: HaDiscoveryPlace, payload: Buffer): HaReading {
  if (payload.length === 0) return { ok: false, removed: true };
  const refuse = (why: string): HaReading => ({ ok: false, why });
  const component = place.component;
  if (!(HA_COMPONENTS as readonly string[]).includes(component))
    return refuse(
      component === 'device'
        ? 'device-based discovery (one config with components) is not read yet: publish one config per component'
        : `the component '${component}' is not offered (only switch, light and sensor)`,
    );
  const raw = payloadObject(payload);
  if (raw === undefined) return refuse('its config is not a JSON object');
  const parsed = haConfigSchema.safeParse(expandHaConfig(raw));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(`its config does not fit: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
  }
  const config = parsed.data;
  const unread = unsupported(component, config);
  if (unread) return refuse(unread);
  const stateTemplateText = component === 'light' ? config.state_value_template : config.value_template;
  const stateTemplate = stateTemplateText === undefined ? undefined : parseHaValueTemplate(stateTemplateText);
  if (stateTemplateText !== undefined && stateTemplate === undefined)
    return refuse(
      `its template ${JSON.stringify(stateTemplateText.slice(0, 80))} is beyond what this host reads ({{ value }}, {{ value_json.a.b }})`,
    );
  for (const used of [
    config.command_topic,
    config.state_topic,
    ...availabilityOf(config).map((entry) => entry.topic),
  ]) {
    const problem = used === undefined ? undefined : topicNameProblem(used);
    if (problem) return refuse(`a topic of its config cannot be used: ${problem}`);
  }
  const base = typeof raw['~'] === 'string' && raw['~'] !== '' ? raw['~'] : undefined;
  if (base !== undefined && topicNameProblem(base))
    return refuse(`its base topic ~ cannot be used: ${topicNameProblem(base)}`);
  return { ok: true, device: deviceOf({ place, config, template: stateTemplate ?? { kind: 'value' }, base }) };
}

/** A `suggested_area` that passes the room rule (the alias rule: one line, visible, ≤ 100 characters) as a suggested room; else none. */
function suggestedRoomOf(area: string | null | undefined): { suggestedRoom?: string } {
  const room = area === null || area === undefined ? undefined : roomNameSchema.safeParse(area);
  return room?.success ? { suggestedRoom: room.data } : {};
}

function unsupported(component: string, config: HaConfig): string | undefined {
  if (component === 'light' && config.schema !== undefined && config.schema !== 'default' && config.schema !== 'basic')
    return `a light of the '${config.schema}' schema is not offered (only the default schema)`;
  if (config.command_template !== undefined) return 'a command_template is not run by this host';
  if (config.availability_template !== undefined || config.availability?.some((entry) => entry.value_template))
    return 'an availability template is not run by this host';
  if (component === 'sensor' && config.state_topic === undefined) return 'a sensor without a state_topic';
  if (component !== 'sensor' && config.command_topic === undefined && config.state_topic === undefined)
    return `a ${component} with neither a command_topic nor a state_topic`;
  return undefined;
}

function availabilityOf(
  config: HaConfig,
): { topic: string; payload_available: string; payload_not_available: string }[] {
  if (config.availability) return config.availability;
  if (config.availability_topic)
    return [
      {
        topic: config.availability_topic,
        payload_available: config.payload_available,
        payload_not_available: config.payload_not_available,
      },
    ];
  return [];
}

/** The states a switch or light reports for on and off (a light compares with its payloads). */
interface HaStates {
  on: string;
  off: string;
}

function deviceOf(options: {
  place: HaDiscoveryPlace;
  config: HaConfig;
  template: HaValueTemplate;
  /** The config's `~`: the base topic it names, under which its own topics are. */
  base: string | undefined;
}): ConventionDevice {
  const { place, config, template } = options;
  const kind = place.component as (typeof HA_COMPONENTS)[number];
  const id = mqttDeviceId('ha', place.name);
  const stateTopic = config.state_topic;
  const states: HaStates =
    kind === 'light'
      ? { on: config.payload_on, off: config.payload_off }
      : { on: config.state_on ?? config.payload_on, off: config.state_off ?? config.payload_off };
  const availability = availabilityOf(config);
  const made = [config.device?.manufacturer, config.device?.model].filter((part) => part).join(' ');
  const numeric = kind === 'sensor' && Boolean(config.unit_of_measurement);
  return {
    path: `ha:${place.name}`,
    hello: {
      device: {
        id,
        kind,
        model: (made || `discovered ${kind}`).slice(0, 100),
        firmware: (config.device?.sw_version ?? '').slice(0, 100),
      },
      tools: toolsOf(kind, config),
      concurrent: false,
    },
    topics: [...new Set([...(stateTopic ? [stateTopic] : []), ...availability.map((entry) => entry.topic)])],
    baseTopics: options.base === undefined ? [] : [options.base],
    commandTopics: commandTopicOf(kind, config) === undefined ? [] : [commandTopicOf(kind, config)!],
    wiring: wiringOf({ kind, config, states }),
    ...suggestedRoomOf(config.device?.suggested_area),
    availabilityMode: config.availability_mode,
    // As Home Assistant does: a device that has availability topics is unavailable until one says otherwise.
    onlineBeforeAvailability: availability.length === 0,
    read(topic, payload): ConventionUpdate | undefined {
      const entry = availability.find((candidate) => candidate.topic === topic);
      if (entry) {
        const text = payloadText(payload);
        if (text === entry.payload_available) return { online: true, source: topic };
        if (text === entry.payload_not_available) return { online: false, source: topic };
      }
      if (topic !== stateTopic) return undefined;
      const value = applyHaValueTemplate(template, { text: payloadText(payload), json: () => payloadJson(payload) });
      if (value === undefined || value === null || typeof value === 'object') return undefined;
      return { state: { value: numeric ? numberOr(value) : value } };
    },
    call(tool, args): ConventionCall {
      if (tool === 'set' && kind !== 'sensor' && config.command_topic !== undefined)
        return setCall({ config, commandTopic: config.command_topic, states, on: onArgument(args, id) });
      if (tool === 'read' && stateTopic !== undefined) return readCall(kind, config, states);
      throw noSuchAction(id, tool);
    },
  };
}

/** The topic `set` publishes on: a switch's or light's `command_topic`; none for a sensor. */
function commandTopicOf(kind: (typeof HA_COMPONENTS)[number], config: HaConfig): string | undefined {
  return kind === 'sensor' ? undefined : config.command_topic;
}

/**
 * Every key of the config that decides what `set` publishes and how its state is read, by its
 * name in the config, as the values this host uses (the defaults filled in).
 */
function wiringOf(options: { kind: (typeof HA_COMPONENTS)[number]; config: HaConfig; states: HaStates }): LinkWiring {
  const { kind, config, states } = options;
  const commandTopic = commandTopicOf(kind, config);
  const stateTemplate = kind === 'light' ? config.state_value_template : config.value_template;
  const fields: [string, string | undefined][] = [
    ['command_topic', commandTopic],
    ['payload_on', commandTopic === undefined ? undefined : config.payload_on],
    ['payload_off', commandTopic === undefined ? undefined : config.payload_off],
    ['state_topic', config.state_topic],
    ['state_on', kind === 'sensor' || config.state_topic === undefined ? undefined : states.on],
    ['state_off', kind === 'sensor' || config.state_topic === undefined ? undefined : states.off],
    [kind === 'light' ? 'state_value_template' : 'value_template', stateTemplate],
    ['unit_of_measurement', config.unit_of_measurement ?? undefined],
  ];
  return fields.flatMap(([label, value]) => (value === undefined ? [] : [{ label, value }]));
}

/** `set` with a command topic, `read` with a state topic. */
function toolsOf(kind: (typeof HA_COMPONENTS)[number], config: HaConfig): DeviceTool[] {
  const tools: DeviceTool[] = [];
  if (kind !== 'sensor' && config.command_topic !== undefined)
    tools.push(setTool({ thing: kind, confirms: config.state_topic !== undefined }));
  if (config.state_topic !== undefined) {
    const unit = config.unit_of_measurement ? ` (${config.unit_of_measurement})` : '';
    tools.push(readTool({ what: [kind === 'sensor' ? `value${unit}` : 'on (true/false)'] }));
  }
  return tools;
}

/** `payload_on` or `payload_off` on the command topic; with a state topic, done when the state says so. */
function setCall(options: { config: HaConfig; commandTopic: string; states: HaStates; on: boolean }): ConventionCall {
  const { config, on } = options;
  const wanted = on ? options.states.on : options.states.off;
  return {
    kind: 'publish',
    topic: options.commandTopic,
    payload: on ? config.payload_on : config.payload_off,
    ...(config.state_topic !== undefined
      ? {
          expect: {
            matches: (state: ConventionState) => String(state.value) === wanted,
            describe: `state ${wanted}`,
          },
        }
      : {}),
    answer: ({ confirmed }) => ({ on, confirmed }),
  };
}

/** A sensor's value (with its unit), or a switch's on, from the last state; and when it came. */
function readCall(kind: (typeof HA_COMPONENTS)[number], config: HaConfig, states: HaStates): ConventionCall {
  return {
    kind: 'last-state',
    answer: ({ state, receivedAt }) => ({
      ...(kind === 'sensor'
        ? { value: state.value, ...(config.unit_of_measurement ? { unit: config.unit_of_measurement } : {}) }
        : { on: onOf(String(state.value), states) }),
      as_of: receivedAt.toISOString(),
    }),
  };
}

/** A switch's state: true, false, or null when the payload is neither of its two (never guessed). */
function onOf(value: string, states: HaStates): boolean | null {
  if (value === states.on) return true;
  if (value === states.off) return false;
  return null;
}

function numberOr(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}
