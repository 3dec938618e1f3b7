import type { JsonSchema } from '../../tools/json-schema.ts';
import type { ModelTool } from '../model-adapter.ts';
import { listInWords, spokenName, type DemoDevice, type DemoDevices } from './demo-devices.ts';

/** The kinds the planner knows by name (planned in plan-demo-calls.ts); every other kind is planned here from its tools. */
export const KINDS_KNOWN_BY_NAME: ReadonlySet<string> = new Set(['lamp', 'thermometer', 'display']);

/** What the generic planner adds to the plan (the same fields as DemoPlan's). */
export interface OtherDevicesPlan {
  calls: { name: string; args: Record<string, unknown> }[];
  doing: string[];
  refusals: string[];
}

/** Words too common to tell one device from another ("read", "switch", "channel", …). */
const FILLER = new Set(
  'the and with from that this what which whether when where into each every one all any some read reads get set switch switches switched turn turns off now how much many are was for you can out its tell give channel channels device devices value values state please them there their then than have does call calls only whole number'.split(
    ' ',
  ),
);

/** The lower-case words of a text, plurals folded ("relays" → "relay"), fillers and short words left out. */
function wordsIn(text: string): Set<string> {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !FILLER.has(word))
    .map((word) => (word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
  return new Set(words);
}

/** A device action's own description, without the devices plugin's "Devices: …" list. */
function ownDescription(tool: ModelTool): string {
  return tool.description.split(' Devices: ')[0] ?? tool.description;
}

/** What names a device: its kind, its alias, and what its actions' descriptions and arguments speak of. */
function wordsOf(device: DemoDevice): Set<string> {
  const texts = [device.kind.replace(/_/g, ' '), device.alias ?? ''];
  for (const tool of device.actions.values()) {
    texts.push(ownDescription(tool));
    texts.push(...Object.keys(tool.parameters.properties ?? {}).map((name) => name.replace(/_/g, ' ')));
  }
  return wordsIn(texts.join(' '));
}

/** Whether the request speaks of this device: by id, by alias, or by a word its kind or tools use. */
function mentioned(text: string, requestWords: ReadonlySet<string>, device: DemoDevice): boolean {
  if (text.includes(device.id.toLowerCase())) return true;
  if (device.alias !== undefined && text.includes(device.alias.toLowerCase())) return true;
  const own = wordsOf(device);
  return [...requestWords].some((word) => own.has(word));
}

/** The action that switches a device: one with a boolean `on` argument. */
function switchAction(device: DemoDevice): ModelTool | undefined {
  return [...device.actions.values()].find((tool) => tool.parameters.properties?.on?.type === 'boolean');
}

/** The numbered argument of an action beside device_id and on (a relay's `channel`), if it has one. */
function numberedArgument(tool: ModelTool): { name: string; schema: JsonSchema; required: boolean } | undefined {
  const properties = tool.parameters.properties ?? {};
  const name = Object.keys(properties).find(
    (key) => key !== 'device_id' && key !== 'on' && properties[key]?.type === 'integer',
  );
  if (name === undefined) return undefined;
  return { name, schema: properties[name]!, required: tool.parameters.required?.includes(name) === true };
}

/** The values a numbered argument takes, when it says (enum, or a range of at most 16), in order. */
function valuesOf(schema: JsonSchema): number[] | undefined {
  if (schema.enum) return schema.enum.filter((value): value is number => typeof value === 'number');
  if (schema.minimum === undefined || schema.maximum === undefined) return undefined;
  if (schema.maximum - schema.minimum >= 16) return undefined;
  return Array.from({ length: schema.maximum - schema.minimum + 1 }, (_, index) => schema.minimum! + index);
}

/** "channels 1–4", "channels 1, 3 and 5", "channel 2". */
function describeValues(name: string, values: readonly number[]): string {
  if (values.length === 1) return `${name} ${values[0]}`;
  const contiguous = values.every((value, index) => index === 0 || value === values[index - 1]! + 1);
  return `${name}s ${contiguous ? `${values[0]}–${values[values.length - 1]}` : listInWords(values.map(String))}`;
}

function allowed(schema: JsonSchema, value: number): boolean {
  if (schema.enum) return schema.enum.includes(value);
  return (
    (schema.minimum === undefined || value >= schema.minimum) &&
    (schema.maximum === undefined || value <= schema.maximum)
  );
}

/** What a device may do, in words: "the only action I may use on it is read". */
function actionsInWords(device: DemoDevice): string {
  const actions = [...device.actions.keys()];
  return actions.length === 1
    ? `the only action I may use on it is ${actions[0]}`
    : `the actions I may use on it are ${listInWords(actions)}`;
}

/** The action that reads a device: one that needs nothing but the device, else one that needs only a numbered argument. */
function readAction(device: DemoDevice): ModelTool | undefined {
  const readers = [...device.actions.values()].filter(
    (tool) => tool !== switchAction(device) || device.actions.size === 1,
  );
  const needs = (tool: ModelTool): string[] => (tool.parameters.required ?? []).filter((name) => name !== 'device_id');
  return (
    readers.find((tool) => /__(read|get)$/.test(tool.name) && needs(tool).length === 0) ??
    readers.find(
      (tool) => /__(read|get)$/.test(tool.name) && needs(tool).length === 1 && numberedArgument(tool)?.required,
    )
  );
}

/**
 * Pure: plans the devices of kinds the planner does not know by name (relays, meters, sensors, any
 * board) from their tools alone. A device is meant when the request names its id or alias, or uses
 * a word of its kind or of what its tools describe ("power" for a meter that reads power_w); a status
 * request reads every one. "on"/"off" switch it through its action with a boolean `on`, a number
 * giving its channel ("switch relay 1 on"); anything else reads it. A channel it does not have, a
 * device id that does not exist, or an action it may not use is refused by name, and nothing is sent.
 */
export function planOtherDevices(options: { text: string; devices: DemoDevices; status: boolean }): OtherDevicesPlan {
  const plan: OtherDevicesPlan = { calls: [], doing: [], refusals: [] };
  const text = options.text.toLowerCase();
  const others = [...options.devices.values()].filter((device) => !KINDS_KNOWN_BY_NAME.has(device.kind));
  if (others.length === 0) return plan;
  for (const kind of new Set(others.map((device) => device.kind))) {
    const named = [...text.matchAll(new RegExp(`\\b${kind}-(\\d+)\\b`, 'g'))].map((found) => found[0]);
    const missing = named.find((id) => !others.some((device) => device.id === id));
    if (missing === undefined) continue;
    const ofKind = others.filter((device) => device.kind === kind).map((device) => device.id);
    plan.refusals.push(`There is no ${missing}. The ${kind.replace(/_/g, ' ')}s I may use are ${listInWords(ofKind)}.`);
    return plan;
  }
  const requestWords = wordsIn(text);
  const question = /^(is|are|what|which|how|do|does)\b/.test(text) || text.trim().endsWith('?');
  const off = /\boff\b/.test(text);
  const on = /\bon\b/.test(text.replace(/\bon the (display|screen)\b/g, ''));
  const switching = !question && (on || off);
  const meant = others.filter((device) => mentioned(text, requestWords, device));
  const targets = meant.length === 0 && options.status && !switching ? others : meant;
  if (targets.length === 0) return plan;
  // Numbers in the request, device ids, names and percentages aside: a channel ("relay 1", "channel 2").
  const bare = others
    .reduce(
      (rest, device) =>
        rest.replaceAll(device.id.toLowerCase(), ' ').replaceAll((device.alias ?? device.id).toLowerCase(), ' '),
      text,
    )
    .replace(/\d+\s*%/g, ' ');
  const numbers = [...bare.matchAll(/\b(\d+)\b/g)].map((found) => Number(found[1]));
  if (switching) planSwitches({ targets, numbers, on: !off, plan });
  else planReads({ targets, numbers, plan, quiet: meant.length === 0 });
  return plan;
}

function planSwitches(options: {
  targets: DemoDevice[];
  numbers: number[];
  on: boolean;
  plan: OtherDevicesPlan;
}): void {
  const { targets, numbers, plan } = options;
  const state = options.on ? 'on' : 'off';
  const switched: string[] = [];
  for (const device of targets) {
    const action = switchAction(device);
    if (action === undefined) {
      plan.refusals.push(
        `I cannot switch ${spokenName(device)}: ${actionsInWords(device)}. If it has another, grant it in the Devices tab.`,
      );
      continue;
    }
    const numbered = numberedArgument(action);
    if (numbered === undefined || (numbers.length === 0 && !numbered.required)) {
      plan.calls.push({ name: action.name, args: { device_id: device.id, on: options.on } });
      switched.push(spokenName(device));
      continue;
    }
    const values = valuesOf(numbered.schema);
    const range = values ? ` (it has ${describeValues(numbered.name, values)})` : '';
    if (numbers.length === 0) {
      plan.refusals.push(
        `Which ${numbered.name} of ${spokenName(device)} should I switch ${state}${range}? Say it, e.g. "switch ${device.kind.replace(/_/g, ' ')} ${values?.[0] ?? 1} ${state}".`,
      );
      continue;
    }
    if (targets.filter((other) => other.kind === device.kind).length > 1) {
      plan.refusals.push(
        `Which ${device.kind.replace(/_/g, ' ')} do you mean? ${listInWords(targets.filter((other) => other.kind === device.kind).map((other) => other.id))} each have ${numbered.name}s: name one, e.g. "switch ${device.id} ${numbered.name} ${numbers[0]} ${state}".`,
      );
      return;
    }
    const wrong = numbers.filter((value) => !allowed(numbered.schema, value));
    if (wrong.length > 0) {
      plan.refusals.push(
        `${spokenName(device)} has no ${describeValues(numbered.name, wrong)}${range}, so I switched nothing.`,
      );
      continue;
    }
    for (const value of numbers)
      plan.calls.push({ name: action.name, args: { device_id: device.id, [numbered.name]: value, on: options.on } });
    switched.push(`${spokenName(device)} ${describeValues(numbered.name, numbers)}`);
  }
  if (switched.length > 0) plan.doing.push(`Switching ${listInWords(switched)} ${state}.`);
}

function planReads(options: {
  targets: DemoDevice[];
  numbers: number[];
  plan: OtherDevicesPlan;
  quiet: boolean;
}): void {
  const { targets, numbers, plan } = options;
  const read: string[] = [];
  for (const device of targets) {
    const action = readAction(device);
    if (action === undefined) {
      // A status request reads what can be read; only a device the person named is worth a word.
      if (!options.quiet)
        plan.refusals.push(
          `I cannot read ${spokenName(device)}: ${actionsInWords(device)}. If it has an action that reads it, grant it in the Devices tab.`,
        );
      continue;
    }
    const numbered = numberedArgument(action);
    if (numbered === undefined || !numbered.required) {
      plan.calls.push({ name: action.name, args: { device_id: device.id } });
      read.push(spokenName(device));
      continue;
    }
    const values = numbers.length > 0 ? numbers : (valuesOf(numbered.schema) ?? []);
    const wrong = values.filter((value) => !allowed(numbered.schema, value));
    if (values.length === 0 || wrong.length > 0) {
      const known = valuesOf(numbered.schema);
      plan.refusals.push(
        values.length === 0
          ? `Which ${numbered.name} of ${spokenName(device)} should I read? Say it, e.g. "is ${device.kind.replace(/_/g, ' ')} 1 on?"`
          : `${spokenName(device)} has no ${describeValues(numbered.name, wrong)}${known ? ` (it has ${describeValues(numbered.name, known)})` : ''}, so I read nothing.`,
      );
      continue;
    }
    for (const value of values)
      plan.calls.push({ name: action.name, args: { device_id: device.id, [numbered.name]: value } });
    read.push(`${spokenName(device)} ${describeValues(numbered.name, values)}`);
  }
  if (read.length > 0) plan.doing.push(`Reading ${listInWords(read)}.`);
}
