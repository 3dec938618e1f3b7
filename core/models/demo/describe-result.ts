import type { ToolResultMessage } from '../conversation-message.ts';

function parse(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * One line a person can read for a tool result the demo planner saw: known device shapes in
 * words ("lamp-1 is on at 100 %"), anything else as the compact JSON the model was given.
 */
export function describeResult(result: ToolResultMessage): string {
  const value = parse(result.content);
  if (result.isError) {
    const error = field(value, 'error');
    return `${result.toolName} failed: ${String(field(error, 'detail') ?? field(error, 'reason') ?? result.content)}`;
  }
  const device = field(value, 'device_id');
  const state = field(value, 'result');
  if (typeof device === 'string' && typeof field(state, 'on') === 'boolean') {
    const brightness = field(state, 'brightness');
    return `${device} is ${field(state, 'on') ? 'on' : 'off'}${typeof brightness === 'number' && field(state, 'on') ? ` at ${brightness} %` : ''}`;
  }
  if (typeof device === 'string' && typeof field(state, 'celsius') === 'number') {
    const humidity = field(state, 'humidity');
    return `${device} reads ${String(field(state, 'celsius'))} °C${typeof humidity === 'number' ? `, ${humidity} % humidity` : ''}`;
  }
  const shown = field(value, 'shown') ?? field(state, 'shown');
  if (typeof shown === 'string') return `${typeof device === 'string' ? device : 'the display'} shows "${shown}"`;
  return `${result.toolName}: ${result.content}`;
}
