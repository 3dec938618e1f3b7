import { randomBytes } from 'node:crypto';
import type { EventFrame, RequestFrame, ResponseFrame } from '../../protocol/frame-schema.ts';
import type { DeviceGrant } from '../../links/device-grant.ts';
import type { SignedEvent, SignedGrant, SignedRequest, SignedResponse } from './bridge-wire.ts';
import { signParts, verifyParts } from './sign-parts.ts';

/** Where a signed message goes and who signs it: every signature covers these, so a message cannot be moved. */
export interface SignedRoute {
  bridge: string;
  /** The device's id on its bridge. */
  device: string;
  host: string;
}

const newNonce = (): string => randomBytes(16).toString('base64url');

/** The request parts a signature covers: its route, time, nonce, where it is answered and with what correlation, its body. */
function requestParts(route: SignedRoute, message: Omit<SignedRequest, 'mac'>, reply: ReplyRoute): (string | number)[] {
  const { bridge, device, host } = route;
  return ['request', bridge, device, host, message.ts, message.nonce, reply.topic, reply.correlation, message.body];
}

/** The MQTT 5 response topic and correlation data (base64url) of a request: signed with it, so no one else can redirect its answer. */
export interface ReplyRoute {
  topic: string;
  correlation: string;
}

/** Host: a request frame for `route.device`, signed with the pairing's key at time `now`. */
export function signRequest(options: {
  key: Buffer;
  route: SignedRoute;
  reply: ReplyRoute;
  frame: RequestFrame;
  now: number;
}): SignedRequest {
  const unsigned = {
    host: options.route.host,
    ts: options.now,
    nonce: newNonce(),
    body: JSON.stringify(options.frame),
  };
  return { ...unsigned, mac: signParts(options.key, requestParts(options.route, unsigned, options.reply)) };
}

/** Bridge: whether a request's signature holds for its route and reply route under `key`. */
export function verifyRequest(options: {
  key: Buffer;
  route: SignedRoute;
  reply: ReplyRoute;
  message: SignedRequest;
}): boolean {
  return verifyParts(options.key, requestParts(options.route, options.message, options.reply), options.message.mac);
}

function responseParts(route: SignedRoute, message: Omit<SignedResponse, 'mac'>, correlation: string) {
  const { bridge, device, host } = route;
  return ['response', bridge, device, host, message.nonce, correlation, message.body];
}

/** Bridge: the answer to the request of nonce `requestNonce`, signed (bound to that request: an old answer fits no new one). */
export function signResponse(options: {
  key: Buffer;
  route: SignedRoute;
  correlation: string;
  requestNonce: string;
  frame: ResponseFrame;
}): SignedResponse {
  const unsigned = { device: options.route.device, nonce: options.requestNonce, body: JSON.stringify(options.frame) };
  return { ...unsigned, mac: signParts(options.key, responseParts(options.route, unsigned, options.correlation)) };
}

/** Host: whether an answer's signature holds for the request it claims to answer. */
export function verifyResponse(options: {
  key: Buffer;
  route: SignedRoute;
  correlation: string;
  message: SignedResponse;
}): boolean {
  return verifyParts(
    options.key,
    responseParts(options.route, options.message, options.correlation),
    options.message.mac,
  );
}

function timedParts(kind: 'event' | 'grant', route: SignedRoute, message: { ts: number; nonce: string; body: string }) {
  return [kind, route.bridge, route.device, route.host, message.ts, message.nonce, message.body];
}

/** Bridge: a device's event for one paired host, signed with that host's key. */
export function signEvent(options: { key: Buffer; route: SignedRoute; frame: EventFrame; now: number }): SignedEvent {
  const unsigned = { ts: options.now, nonce: newNonce(), body: JSON.stringify(options.frame) };
  return { ...unsigned, mac: signParts(options.key, timedParts('event', options.route, unsigned)) };
}

/** Host: whether an event's signature holds. */
export function verifyEvent(options: { key: Buffer; route: SignedRoute; message: SignedEvent }): boolean {
  return verifyParts(options.key, timedParts('event', options.route, options.message), options.message.mac);
}

/** Host: what it grants on a device, signed; a later time replaces what an earlier one said. */
export function signGrant(options: { key: Buffer; route: SignedRoute; grant: DeviceGrant; now: number }): SignedGrant {
  const unsigned = {
    host: options.route.host,
    ts: options.now,
    nonce: newNonce(),
    body: JSON.stringify({ grant: options.grant }),
  };
  return { ...unsigned, mac: signParts(options.key, timedParts('grant', options.route, unsigned)) };
}

/** Bridge: whether a grant's signature holds. */
export function verifyGrant(options: { key: Buffer; route: SignedRoute; message: SignedGrant }): boolean {
  return verifyParts(options.key, timedParts('grant', options.route, options.message), options.message.mac);
}
