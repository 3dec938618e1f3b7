import type { AgentEvent } from './agent-event.ts';
import { boundedArguments, boundedArgumentsText, type ArgumentBounds } from '../tools/argument-bounds.ts';

/**
 * The event with every call argument it carries within the bounds (`batch/start`, an early
 * `tool/start`, `approval/request`, `message/assistant`, `device/state`): those that break one are
 * replaced by a bounded stand-in (boundedArguments). The same object when nothing changed; `bounds`
 * is asked only for events that carry arguments.
 */
export function boundEventArguments(event: AgentEvent, bounds: () => ArgumentBounds | undefined): AgentEvent {
  switch (event.type) {
    case 'batch/start': {
      const limits = bounds();
      const calls = event.calls.map((call) => withArgs(call, boundedArguments(call.args, limits)));
      return calls.some((call, index) => call !== event.calls[index]) ? { ...event, calls } : event;
    }
    case 'message/assistant': {
      if (event.toolCalls.length === 0) return event;
      const limits = bounds();
      const toolCalls = event.toolCalls.map((call) => {
        const bounded = withArgs(call, boundedArguments(call.args, limits));
        if (bounded.argumentsText === undefined) return bounded;
        const text = boundedArgumentsText(bounded.argumentsText, limits);
        return text === bounded.argumentsText ? bounded : { ...bounded, argumentsText: text };
      });
      return toolCalls.some((call, index) => call !== event.toolCalls[index]) ? { ...event, toolCalls } : event;
    }
    case 'tool/start':
    case 'device/state':
      return event.args === undefined ? event : withArgs(event, boundedArguments(event.args, bounds()));
    case 'approval/request':
      return withArgs(event, boundedArguments(event.args, bounds()));
    default:
      return event;
  }
}

/** `item` with `args`, the same object when they are the ones it has. */
function withArgs<T extends { args?: Record<string, unknown> }>(item: T, args: Record<string, unknown>): T {
  return item.args === args ? item : { ...item, args };
}
