import type { ProgressToken, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '../../../core/events/agent-event.ts';

/** A call still running this long after it started is said to wait for its device. */
export const DEVICE_WAIT_NOTICE_MS = 500;

/** Where a person answers a question: never the MCP client that asked. */
export const WHERE_TO_ANSWER =
  'the person answers in a Home Agent window, the browser UI or the terminal where Home Agent runs, not in this client';

/**
 * Tells an MCP client that asked for progress (a `progressToken`) what its call waits for, from
 * the events of its turn: a person's approval (and where they answer it), its answer, or, past
 * DEVICE_WAIT_NOTICE_MS, the device's answer. Each report counts up. Returns the function that
 * stops reporting (once the call ended).
 */
export function reportCallProgress(options: {
  events: { subscribe(listener: (event: AgentEvent) => void): () => void };
  turnId: string;
  name: string;
  send: (progress: number, message: string) => void;
}): () => void {
  const { name } = options;
  let count = 0;
  let asking = false;
  let timer: NodeJS.Timeout | undefined;
  const send = (message: string): void => options.send(++count, message);
  // Counted from when it starts, and again from when the person let it run.
  const waitForDevice = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!asking) send(`${name} is waiting for the device's answer.`);
    }, DEVICE_WAIT_NOTICE_MS);
  };
  const stop = options.events.subscribe((event) => {
    if (event.turnId !== options.turnId) return;
    if (event.type === 'tool/start') waitForDevice();
    else if (event.type === 'approval/request') {
      asking = true;
      send(`${name} is waiting for a person's approval: ${WHERE_TO_ANSWER}.`);
    } else if (event.type === 'approval/end') {
      asking = false;
      send(event.approved ? `${name} was approved: it runs now.` : `${name} was not approved: it does not run.`);
      if (event.approved) waitForDevice();
    }
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}

/** How one request's progress is sent on its own stream: undefined when the client gave no `progressToken`. */
export function progressSender(
  token: ProgressToken | undefined,
  request: { sendNotification(notification: ServerNotification): Promise<void> },
): ((progress: number, message: string) => void) | undefined {
  if (token === undefined) return undefined;
  return (progress, message) =>
    void request
      .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } })
      .catch(() => undefined);
}
