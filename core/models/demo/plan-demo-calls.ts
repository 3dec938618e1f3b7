import type { ModelTool } from '../model-adapter.ts';

/** A call the demo planner decided on. */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** The device ids a device tool accepts (its `device_id` enum), or [] when it names none. */
export function deviceIdsOf(tool: ModelTool): string[] {
  const enumValues = tool.parameters.properties?.device_id?.enum;
  return Array.isArray(enumValues) ? enumValues.map(String) : [];
}

function findTool(tools: readonly ModelTool[], pattern: RegExp): ModelTool | undefined {
  return tools.find((tool) => pattern.test(tool.name));
}

/** Ids the text names explicitly ("lamp 2", "lamp-1"), else all of them. */
function targets(text: string, ids: string[]): string[] {
  const named = ids.filter((id) => {
    const [kind, number] = id.split('-');
    return new RegExp(`\\b${kind}[\\s-]?${number}\\b`).test(text);
  });
  return named.length > 0 ? named : ids;
}

function perDevice(tool: ModelTool, text: string, args: Record<string, unknown>): PlannedCall[] {
  const ids = deviceIdsOf(tool);
  if (ids.length === 0) return [{ name: tool.name, args }];
  return targets(text, ids).map((id) => ({ name: tool.name, args: { device_id: id, ...args } }));
}

/** What the person asked for, read by keywords (the demo model is a transparent planner, not an AI). */
export interface DemoIntent {
  calls: PlannedCall[];
  wantsDisplay: boolean;
}

/**
 * Plans the first reply for a request like "turn on all lamps and show the temperature on the
 * display": every independent call goes into one reply (so they run as one parallel batch).
 */
export function planDemoCalls(userText: string, tools: readonly ModelTool[]): DemoIntent {
  const text = userText.toLowerCase();
  const calls: PlannedCall[] = [];
  const lampSet = findTool(tools, /^lamp.*__set$/);
  const lampGet = findTool(tools, /^lamp.*__get$/);
  const thermometer = findTool(tools, /^thermometer.*__read$/);
  const mentionsLamps = /\b(lamps?|lights?)\b/.test(text);
  const off = /\boff\b/.test(text);
  const on = /\bon\b/.test(text.replace(/\bon the (display|screen)\b/g, ''));
  if (mentionsLamps && lampSet && (on || off)) calls.push(...perDevice(lampSet, text, { on: !off }));
  else if (mentionsLamps && lampGet) calls.push(...perDevice(lampGet, text, {}));
  if (/\b(status|everything)\b/.test(text) && lampGet && !mentionsLamps) calls.push(...perDevice(lampGet, text, {}));
  const wantsDisplay = /\b(display|screen)\b/.test(text);
  if (
    thermometer &&
    (/\b(temperature|warm|cold|humidity|thermometer|status|everything)\b/.test(text) || wantsDisplay)
  ) {
    calls.push(...perDevice(thermometer, text, {}));
  }
  return { calls, wantsDisplay };
}
