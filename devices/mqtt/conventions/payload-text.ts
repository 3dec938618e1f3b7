import { parseJsonLine } from '../../protocol/parse-json-line.ts';
import { isRecord } from '../../../core/text/is-record.ts';

/** A payload as text (MQTT payloads of these conventions are UTF-8), surrounding white space dropped. */
export function payloadText(payload: Buffer): string {
  return payload.toString('utf8').trim();
}

/**
 * A payload read as JSON, or undefined when it is not JSON. The broker has dropped payloads over its
 * size limit already; parsing still refuses nesting too deep to walk safely.
 */
export function payloadJson(payload: Buffer): unknown {
  const text = payloadText(payload);
  const parsed = parseJsonLine(text, Buffer.byteLength(text, 'utf8'));
  return parsed.ok ? parsed.value : undefined;
}

/** A JSON object payload as a record, or undefined when it is no object. */
export function payloadObject(payload: Buffer): Record<string, unknown> | undefined {
  const value = payloadJson(payload);
  return isRecord(value) ? value : undefined;
}

/**
 * Why `name` cannot stand inside a topic this host subscribes to or publishes on (an MQTT wildcard,
 * a NUL, nothing at all), or undefined when it can.
 */
export function topicNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (/[+#]/.test(name)) return 'it holds an MQTT wildcard (+ or #)';
  if (name.includes('\u0000')) return 'it holds a NUL character';
  return undefined;
}
