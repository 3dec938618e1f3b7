import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { safeText } from '../../../core/text/safe-text.ts';

/** The spec's levels, least severe first. */
const LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/**
 * One MCP session's own log, sent to its client as `notifications/message` once it chose a level
 * (`logging/setLevel`), at or above that level; nothing before. Lines name tools, devices and
 * outcomes only, never a call's arguments, and pass the one text rule: no credential, no control
 * characters reach the client. Only this session's lines are written here.
 */
export class SessionLog {
  private level: LoggingLevel | undefined;

  constructor(private readonly send: (notification: ServerNotification) => Promise<void>) {}

  setLevel(level: LoggingLevel): void {
    this.level = level;
  }

  write(level: LoggingLevel, line: string): void {
    if (this.level === undefined || LEVELS.indexOf(level) < LEVELS.indexOf(this.level)) return;
    // A client that went away meanwhile is not told.
    this.send({
      method: 'notifications/message',
      params: { level, logger: 'home-agent', data: safeText(line) },
    }).catch(() => undefined);
  }
}
