import type { ToolErrorData } from '../../../core/tools/tool-error.ts';
import type { RequestFrame } from '../../protocol/frame-schema.ts';
import { grantAllows, type DeviceGrant } from '../../links/device-grant.ts';
import { BODY_SCHEMAS, readWire, signedRequestSchema } from './bridge-wire.ts';
import { bridgeTopics } from './bridge-topics.ts';
import type { ReplayWindow } from './replay-window.ts';
import { verifyRequest, type SignedRoute } from './signed-messages.ts';

/** How a bridge answers a request, once decided: to whom, and either the request to run or the refusal to send. */
export interface AnsweredRequest {
  answer: true;
  route: SignedRoute;
  key: Buffer;
  responseTopic: string;
  correlation: Buffer;
  /** The request's nonce: the answer is bound to it. */
  nonce: string;
  /** The request's id (0 when its body could not be read). */
  id: number;
  /** What to run; absent when it is refused. */
  frame?: RequestFrame;
  /** Why it is refused (stale, replayed, not granted, not readable): sent back signed. */
  refusal?: ToolErrorData;
}

/** A request left unanswered: nothing tells its sender anything. */
export interface DroppedRequest {
  answer: false;
  /** `malformed`: not a request; `unpaired`: from no paired host; `forged`: its signature does not hold. */
  why: 'malformed' | 'unpaired' | 'forged';
  detail: string;
}

/**
 * The bridge's decision on one message for device `device`: only a request signed by a paired host
 * (its key) for this device and this answer topic is answered; a stale or replayed one, or one for an
 * action the host has not granted, is answered with the refusal. Nothing runs here.
 */
export function judgeRequest(options: {
  prefix: string;
  bridge: string;
  device: string;
  payload: string;
  responseTopic: string | undefined;
  correlation: Buffer | undefined;
  maxBytes: number;
  keyOf(host: string): Buffer | undefined;
  grantOf(host: string, device: string): DeviceGrant | undefined;
  window: ReplayWindow;
}): AnsweredRequest | DroppedRequest {
  const read = readWire(signedRequestSchema, options.payload, options.maxBytes);
  if (!read.ok) return { answer: false, why: 'malformed', detail: `not a request: ${read.detail}` };
  const message = read.value;
  const expectedTopic = bridgeTopics(options.prefix, options.bridge).reply(message.host);
  if (options.responseTopic !== expectedTopic || options.correlation === undefined)
    return {
      answer: false,
      why: 'malformed',
      detail: `a request must name the response topic ${expectedTopic} and correlation data`,
    };
  const key = options.keyOf(message.host);
  if (key === undefined)
    return { answer: false, why: 'unpaired', detail: `host ${message.host} is not paired with this bridge` };
  const route = { bridge: options.bridge, device: options.device, host: message.host };
  const correlation = options.correlation;
  const reply = { topic: expectedTopic, correlation: correlation.toString('base64url') };
  if (!verifyRequest({ key, route, reply, message }))
    return {
      answer: false,
      why: 'forged',
      detail: `a request in the name of host ${message.host} is not signed with its key`,
    };
  const body = readWire(BODY_SCHEMAS.request, message.body, options.maxBytes);
  const answered = {
    answer: true as const,
    route,
    key,
    responseTopic: expectedTopic,
    correlation,
    nonce: message.nonce,
  };
  const id = body.ok ? body.value.id : 0;
  const fresh = options.window.admit(message.ts, message.nonce);
  if (!fresh.ok) return { ...answered, id, refusal: { reason: 'unauthorized', detail: `refused: ${fresh.detail}` } };
  if (!body.ok)
    return { ...answered, id, refusal: { reason: 'invalid_json', detail: `not a request: ${body.detail}` } };
  const frame = body.value;
  if (frame.op === 'call') {
    const grant = options.grantOf(message.host, options.device) ?? [];
    if (!grantAllows(grant, frame.tool))
      return {
        ...answered,
        id,
        refusal: {
          reason: 'unauthorized',
          detail: `the bridge refuses ${frame.tool}: the host has not granted it on this device`,
          hint: 'grant it to the agent (devices grant) before using it',
        },
      };
  }
  return { ...answered, id, frame };
}
