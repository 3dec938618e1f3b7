import { formatTokens } from '../../core/context/context-too-small.ts';
import type { AgentEvent } from '../../core/events/agent-event.ts';

type RequestHeader = Extract<AgentEvent, { type: 'request/header' }>;

/**
 * The line that tells the person how full the model's context window is, from a request's header:
 * "Context: 5,210 of 8,192 tokens · 14 earlier turns not sent". Undefined when the window is not
 * known. The window and the CLI both show it.
 */
export function contextLine(
  header: Pick<RequestHeader, 'contextTokens' | 'estimatedTokens' | 'omittedTurns'>,
): string | undefined {
  if (header.contextTokens === undefined || header.estimatedTokens === undefined) return undefined;
  const line = `Context: ${formatTokens(header.estimatedTokens)} of ${formatTokens(header.contextTokens)} tokens`;
  const omitted = header.omittedTurns ?? 0;
  if (omitted === 0) return line;
  return `${line} · ${formatTokens(omitted)} earlier ${omitted === 1 ? 'turn' : 'turns'} not sent`;
}
