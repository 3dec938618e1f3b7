import type { AgentEvent } from '../../core/events/agent-event.ts';

/** A person-readable rendition of an event for `ask` without `--json` (not a contract). */
export function formatEventForPeople(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'text/delta':
      return event.text;
    case 'message/assistant':
      return '\n';
    case 'batch/start':
      return `┌ batch (${event.mode}) — ${event.reason}\n`;
    case 'tool/end': {
      const status = event.ok ? 'ok' : `${event.error?.reason}: ${event.error?.detail ?? ''}`;
      return `│ ${event.index}. ${event.name} ${status}  (queued ${event.queuedMs.toFixed(0)} ms, ran ${event.runMs.toFixed(0)} ms)\n`;
    }
    case 'output/send':
      return `│ → [${event.channel}] ${event.text}\n`;
    case 'batch/end':
      return `└ ${event.executed} executed in ${event.wallMs.toFixed(0)} ms\n`;
    case 'turn/end':
      return '\n';
    default:
      return undefined;
  }
}
