import type { ModelRequest } from '../model-adapter.ts';
import {
  devicesOf,
  usableDevices,
  devicesOfKind,
  listInWords,
  spokenName,
  spokenNameOf,
  type DemoDevice,
  type DemoDevices,
} from './demo-devices.ts';
import { planOtherDevices } from './plan-other-devices.ts';
import { roomOfRequest } from './room-of-request.ts';

export { deviceIdsOf } from './demo-devices.ts';

/** A call the demo planner decided on. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * What the person asked for, read by keywords (the demo model is a transparent planner, not an
 * AI): the calls it can make now, what it says it is doing, and what it refuses and why.
 */
export interface DemoPlan {
  calls: PlannedCall[];
  /** One sentence per thing it set out to do ("Switching lamp-1 and lamp-2 on."). */
  doing: string[];
  /** One sentence per thing it will not do, naming why (no such device, not granted, out of range). */
  refusals: string[];
  /** A reading is to be shown on the display once it is known (a second reply). */
  wantsDisplay: boolean;
}

/** Nouns for things a home may have that are no device of ours, so a request for one is refused by name. */
const OTHER_THINGS = [
  'heater',
  'heating',
  'fan',
  'tv',
  'television',
  'blinds',
  'curtains',
  'oven',
  'kettle',
  'speaker',
  'camera',
  'lock',
  'boiler',
  'radiator',
  'heat pump',
  'air conditioner',
  'vacuum',
];
/** Words that may stand before "lamp" without naming one. */
const NOT_A_NAME = new Set(
  'all both every each the my our these those any other two a on off of and turn switch set dim is are'.split(' '),
);
const LAMP_WORDS = /\b(lamps?|lights?)\b/;
const READ_ACTIONS = ['get', 'read'];

function grantHint(device: DemoDevice, action: string): string {
  return `I may not ${action === 'set' ? 'switch' : action} ${spokenName(device)}: its ${action} action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant ${device.id} ${action}`;
}

/**
 * The lamps the text names, by number or by alias, among every paired lamp (granted or not), else
 * every lamp it may use; or why none can be named.
 */
function lampTargets(
  text: string,
  lamps: DemoDevice[],
  verb: string,
): { ok: true; lamps: DemoDevice[] } | { ok: false; refusal: string } {
  const usable = lamps.filter((lamp) => lamp.actions.size > 0);
  const known =
    usable.length > 0 ? `The lamps I may use are ${listInWords(usable.map(spokenName))}` : 'I may use no lamp yet';
  const numbered = [...text.matchAll(/\blamp[\s-]?(\d+)\b/g)].map((found) => `lamp-${found[1]}`);
  if (numbered.length > 0) {
    const missing = numbered.find((id) => !lamps.some((lamp) => lamp.id === id));
    if (missing) return { ok: false, refusal: `There is no ${missing}. ${known}.` };
    return { ok: true, lamps: lamps.filter((lamp) => numbered.includes(lamp.id)) };
  }
  const named = /\b([a-z][a-z-]*)\s+(?:lamps?|lights?)\b/.exec(text)?.[1];
  if (named !== undefined && !NOT_A_NAME.has(named)) {
    const matching = lamps.filter((lamp) => lamp.alias?.toLowerCase().includes(named));
    if (matching.length === 0)
      return {
        ok: false,
        refusal: `I know no lamp called "${named}". ${known}: name one of them, e.g. "${verb} ${usable[0]?.id ?? 'lamp-1'}".`,
      };
    return { ok: true, lamps: matching };
  }
  return { ok: true, lamps: usable.length > 0 ? usable : lamps };
}

/** Why a device it may not read is not read: the grant to give, when the person withheld its read action. */
function readRefusals(devices: DemoDevice[]): string[] {
  return devices.flatMap((device) => {
    if (READ_ACTIONS.some((name) => device.actions.has(name))) return [];
    const withheld = READ_ACTIONS.find((name) => device.notGranted.includes(name));
    return withheld ? [grantHint(device, withheld)] : [];
  });
}

/** Reads of every device of a kind through its read action (`get` or `read`), or nothing. */
function readsOf(devices: DemoDevice[]): PlannedCall[] {
  return devices.flatMap((device) => {
    const action = READ_ACTIONS.find((name) => device.actions.has(name));
    return action ? [{ name: device.actions.get(action)!.name, args: { device_id: device.id } }] : [];
  });
}

/** The brightness a lamp's `set` accepts, from its own declaration. */
function brightnessRange(device: DemoDevice): { minimum?: number; maximum?: number } {
  const property = device.actions.get('set')?.parameters.properties?.brightness;
  return {
    ...(property?.minimum !== undefined ? { minimum: property.minimum } : {}),
    ...(property?.maximum !== undefined ? { maximum: property.maximum } : {}),
  };
}

function planLamps(text: string, devices: DemoDevices, plan: DemoPlan): void {
  const question = /^(is|are|what|which|how)\b/.test(text) || text.trim().endsWith('?');
  const off = /\boff\b/.test(text);
  const on = /\bon\b/.test(text.replace(/\bon the (display|screen)\b/g, ''));
  const brightness = /(\d+)\s*%|\bbrightness\s+(?:to\s+|of\s+)?(\d+)|\bdim\b.*?\bto\s+(\d+)/.exec(text);
  const everything = /\b(everything|all devices|all)\b/.test(text) && !LAMP_WORDS.test(text);
  const mentioned = LAMP_WORDS.test(text) || /\blamp[\s-]?\d+\b/.test(text) || (everything && (on || off) && !question);
  if (!mentioned) return;
  const lamps = devicesOfKind(devices, 'lamp');
  if (lamps.length === 0) {
    plan.refusals.push('There is no lamp among the devices I may use.');
    return;
  }
  const wantsChange = !question && (on || off || brightness !== null);
  const targets = lampTargets(text, lamps, off ? 'turn off' : 'turn on');
  if (!targets.ok) {
    plan.refusals.push(targets.refusal);
    return;
  }
  if (!wantsChange) {
    const reads = readsOf(targets.lamps);
    plan.refusals.push(...readRefusals(targets.lamps));
    plan.calls.push(...reads);
    if (reads.length > 0)
      plan.doing.push(`Reading ${listInWords(reads.map((call) => spokenNameOf(devices, call.args.device_id)))}.`);
    return;
  }
  const value = brightness ? Number(brightness[1] ?? brightness[2] ?? brightness[3]) : undefined;
  const allowed = targets.lamps.filter((lamp) => lamp.actions.has('set'));
  for (const lamp of targets.lamps.filter((candidate) => !candidate.actions.has('set')))
    plan.refusals.push(grantHint(lamp, 'set'));
  if (allowed.length === 0) return;
  if (value !== undefined) {
    const { minimum, maximum } = brightnessRange(allowed[0]!);
    if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
      plan.refusals.push(`Brightness goes from ${minimum ?? 0} to ${maximum ?? 100} %, so I did not send ${value} %.`);
      return;
    }
  }
  for (const lamp of allowed) {
    const args: Record<string, unknown> = { device_id: lamp.id };
    if (on || off) args.on = !off;
    if (value !== undefined) args.brightness = value;
    plan.calls.push({ name: lamp.actions.get('set')!.name, args });
  }
  const ids = listInWords(allowed.map(spokenName));
  plan.doing.push(
    value !== undefined ? `Setting ${ids} to ${value} % brightness.` : `Switching ${ids} ${off ? 'off' : 'on'}.`,
  );
}

function planThermometers(text: string, devices: DemoDevices, plan: DemoPlan): void {
  const status = /\b(status|everything)\b/.test(text) && !/\b(on|off)\b/.test(text);
  const wanted = /\b(temperature|warm|cold|humidity|thermometers?)\b/.test(text) || status || plan.wantsDisplay;
  if (!wanted) return;
  const thermometers = devicesOfKind(devices, 'thermometer');
  if (/\bthermometers?\b/.test(text) && /\b(turn|switch)\b/.test(text) && /\b(on|off)\b/.test(text)) {
    for (const device of thermometers) plan.refusals.push(cannotSwitch(device));
    return;
  }
  const reads = readsOf(thermometers);
  plan.refusals.push(...readRefusals(thermometers));
  if (reads.length === 0) {
    if (!status && thermometers.length === 0)
      plan.refusals.push('There is no thermometer among the devices I may use.');
    return;
  }
  plan.calls.push(...reads);
  const ids = listInWords(reads.map((call) => spokenNameOf(devices, call.args.device_id)));
  plan.doing.push(plan.wantsDisplay ? `Reading ${ids}, then showing it on the display.` : `Reading ${ids}.`);
}

function cannotSwitch(device: DemoDevice): string {
  const actions = [...device.actions.keys()];
  return `I cannot switch ${spokenName(device)}: ${actions.length === 1 ? `the only action I may use on it is ${actions[0]}` : `the actions I may use on it are ${listInWords(actions)}`}. If it has another, grant it in the Devices tab.`;
}

/**
 * Plans the first reply: every independent call goes into one reply (so they run as one parallel
 * batch); a reading to be shown on the display waits for a second reply. Lamps, thermometers and
 * displays are known by name; every other device is planned from its tools (planOtherDevices).
 * What it cannot do is refused by name — no such device, not granted (with the grant to give), out of range.
 */
export function planDemoCalls(userText: string, request: Pick<ModelRequest, 'tools' | 'system'>): DemoPlan {
  const text = userText.toLowerCase();
  // Every paired device, so one it may not use yet is named with the grant to give, not denied.
  const everywhere = devicesOf(request.tools, request.system);
  // A room named ("everything in the kitchen") narrows every plan below to its devices.
  const room = roomOfRequest(userText, request.system);
  const paired = room ? new Map([...everywhere].filter(([id]) => room.ids.has(id))) : everywhere;
  const devices = usableDevices(paired);
  const plan: DemoPlan = {
    calls: [],
    doing: [],
    refusals: [],
    wantsDisplay: /\b(display|screen)\b/.test(text) && /\b(temperature|warm|cold|humidity)\b/.test(text),
  };
  for (const thing of OTHER_THINGS) {
    if (new RegExp(`\\b${thing}s?\\b`).test(text) && devicesOfKind(devices, thing.replace(/ /g, '_')).length === 0)
      plan.refusals.push(`There is no ${thing} among the devices I may use (${[...devices.keys()].join(', ')}).`);
  }
  planLamps(text, paired, plan);
  if (/\bstatus\b/.test(text) && !LAMP_WORDS.test(text)) {
    const reads = readsOf(devicesOfKind(devices, 'lamp'));
    plan.calls.push(...reads);
    if (reads.length > 0)
      plan.doing.push(`Reading ${listInWords(reads.map((call) => spokenNameOf(devices, call.args.device_id)))}.`);
  }
  planThermometers(text, paired, plan);
  const others = planOtherDevices({
    text,
    devices,
    status: /\b(status|everything)\b/.test(text) && !/\b(on|off)\b/.test(text) && !LAMP_WORDS.test(text),
  });
  plan.calls.push(...others.calls);
  plan.doing.push(...others.doing);
  plan.refusals.push(...others.refusals);
  return plan;
}
