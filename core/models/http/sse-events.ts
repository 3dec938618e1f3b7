import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One server-sent event. `atEnd`: dispatched only because the body ended without its blank line. */
export interface SseEvent {
  event: string | undefined;
  data: string;
  atEnd: boolean;
}

/**
 * Server-sent events from streamed text (LF or CRLF framing), via eventsource-parser. A last
 * event the body ends without a blank line after is still delivered, marked `atEnd`, so a
 * format can tell a complete trailing event from one cut in the middle.
 */
export async function* sseEvents(text: AsyncIterable<string>): AsyncGenerator<SseEvent, void, undefined> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => queue.push(message) });
  for await (const chunk of text) {
    parser.feed(chunk);
    while (queue.length > 0) yield toEvent(queue.shift() as EventSourceMessage, false);
  }
  // Terminate a pending line and event as if the blank line had come.
  parser.feed('\n\n');
  while (queue.length > 0) yield toEvent(queue.shift() as EventSourceMessage, true);
}

function toEvent(message: EventSourceMessage, atEnd: boolean): SseEvent {
  return { event: message.event, data: message.data, atEnd };
}
