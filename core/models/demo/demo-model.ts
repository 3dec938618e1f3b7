import type { ModelAdapter, ModelRequest, ModelStreamPart, ModelTool } from '../model-adapter.ts';
import type { AssistantMessage, ConversationMessage, ToolResultMessage } from '../conversation-message.ts';
import { planDemoCalls, type PlannedCall } from './plan-demo-calls.ts';
import { deviceIdsOf, devicesOf, listInWords, spokenNameOf, usableDevices } from './demo-devices.ts';
import { disabledPluginNames } from '../../prompt/disabled-plugins-section.ts';
import { describeResult } from './describe-result.ts';

export const DEMO_MODEL_LABEL = 'Demo model — no AI';

const HELP =
  'I am the demo model — no AI, just a small planner over the devices I may use. Try: "turn on all lamps and show the temperature on the display", "turn off lamp 2", "set lamp 1 to 30 % brightness", "what is the temperature?", "switch relay 1 on", "how much power now?" or "status". Configure a real model (see the README) to talk freely.';

/** The help, with the devices it may use now (or that none is granted yet). */
function help(tools: readonly ModelTool[]): string {
  const ids = [...usableDevices(devicesOf(tools)).keys()];
  return `${HELP} ${ids.length > 0 ? `The devices I may use now: ${listInWords(ids)}.` : 'No device is granted to me yet: allow some in the Devices tab.'}`;
}

/** What it says when the person turned the Devices plugin off: that, not that a device does not exist. */
const DEVICES_OFF =
  'The Devices plugin is turned off, so I can reach no device and did nothing. Turn it on in the Plugins tab, then ask again.';

interface TurnSoFar {
  userText: string;
  assistants: AssistantMessage[];
  results: ToolResultMessage[];
}

function turnSoFar(messages: readonly ConversationMessage[]): TurnSoFar {
  let start = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') {
      start = i;
      break;
    }
  }
  const after = messages.slice(start + 1);
  const user = messages[start];
  return {
    userText: user?.role === 'user' ? user.text : '',
    assistants: after.filter((message): message is AssistantMessage => message.role === 'assistant'),
    results: after.filter((message): message is ToolResultMessage => message.role === 'tool'),
  };
}

function displayCall(tools: readonly ModelTool[], text: string): PlannedCall | undefined {
  const channel = tools.find((tool) => /^output_send__display/.test(tool.name));
  if (channel) return { name: channel.name, args: { text } };
  const show = tools.find((tool) => /^display.*__show$/.test(tool.name));
  if (!show) return undefined;
  const ids = deviceIdsOf(show);
  return { name: show.name, args: ids[0] ? { device_id: ids[0], text } : { text } };
}

function temperatureText(results: readonly ToolResultMessage[]): string | undefined {
  for (const result of results) {
    if (result.isError || !/thermometer/.test(result.toolName)) continue;
    const match = /"celsius":\s*(-?[\d.]+)/.exec(result.content);
    if (match) return `${match[1]} °C`;
  }
  return undefined;
}

/**
 * The last reply: one line per result, in the order the calls were made, then what was refused.
 * "Done." only when every call succeeded, nothing was refused and something was done (a reading
 * alone is just said); otherwise it says plainly that not everything worked.
 */
function summary(state: TurnSoFar, request: ModelRequest): string {
  const { tools } = request;
  const argsOf = new Map(
    state.assistants.flatMap((message) => message.toolCalls.map((call) => [call.id, call.args] as const)),
  );
  const devices = devicesOf(tools, request.system);
  const described = state.results.map((result) => ({
    ...describeResult(
      result,
      argsOf.get(result.toolCallId) ?? {},
      tools.find((tool) => tool.name === result.toolName),
      (deviceId) => spokenNameOf(devices, deviceId),
    ),
    acted: !/__(get|read)$/.test(result.toolName),
  }));
  const refusals = planDemoCalls(state.userText, request).refusals;
  const lines = [...described.map((entry) => entry.line), ...refusals];
  const failed = described.filter((entry) => entry.kind === 'failed').length + refusals.length;
  if (failed === 0 && !described.some((entry) => entry.acted)) return lines.join('\n');
  const opening = failed === 0 ? 'Done.' : failed < lines.length ? 'Not everything worked.' : 'That did not work.';
  return [opening, ...lines.map((line) => `- ${line}`)].join('\n');
}

/** Decides the next reply of the demo planner from the conversation so far. */
export function planDemoReply(request: ModelRequest): { text: string; calls: PlannedCall[] } {
  const state = turnSoFar(request.messages);
  if (state.assistants.length === 0) {
    const plan = planDemoCalls(state.userText, request);
    if (plan.calls.length === 0 && disabledPluginNames(request.system).includes('devices'))
      return { text: DEVICES_OFF, calls: [] };
    if (plan.calls.length === 0 && plan.refusals.length === 0) return { text: help(request.tools), calls: [] };
    return { text: [...plan.doing, ...plan.refusals].join(' '), calls: plan.calls };
  }
  const wantsDisplay = planDemoCalls(state.userText, request).wantsDisplay;
  const shown = state.assistants.some((message) => message.toolCalls.some((call) => /display/.test(call.name)));
  const temperature = temperatureText(state.results);
  if (wantsDisplay && !shown && temperature) {
    const call = displayCall(request.tools, `Temperature ${temperature}`);
    if (call)
      return {
        text: `Showing ${temperature} on the display (it needed the reading first, so it is its own reply).`,
        calls: [call],
      };
  }
  return { text: summary(state, request), calls: [] };
}

/**
 * The out-of-the-box model: a small, transparent keyword planner over the device tools,
 * labelled "Demo model — no AI" wherever it shows. Independent calls go into one reply.
 */
export class DemoModel implements ModelAdapter {
  readonly label = DEMO_MODEL_LABEL;
  readonly scripted = true;

  async *stream(request: ModelRequest, options: { signal: AbortSignal }): AsyncIterable<ModelStreamPart> {
    const reply = planDemoReply(request);
    for (const word of reply.text.split(/(?<= )/)) {
      if (options.signal.aborted) return;
      yield { type: 'text-delta', text: word };
    }
    for (const [index, call] of reply.calls.entries()) {
      yield {
        type: 'tool-call-delta',
        index,
        id: `demo_${index}_${Math.random().toString(36).slice(2, 8)}`,
        name: call.name,
        argumentsDelta: JSON.stringify(call.args),
      };
    }
    yield { type: 'finish', reason: reply.calls.length > 0 ? 'tool_calls' : 'stop' };
  }
}
