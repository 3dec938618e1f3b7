import { z, type ZodType } from 'zod';
import { parseJsonLine } from '../../protocol/parse-json-line.ts';
import {
  deviceIdentitySchema,
  eventFrameSchema,
  helloResultSchema,
  MAX_DEVICE_TOOLS,
  nameSchema,
  requestFrameSchema,
  responseFrameSchema,
} from '../../protocol/frame-schema.ts';
import { bridgeNameSchema } from './bridge-name.ts';
import { hostIdSchema } from './bridge-topics.ts';

/** The version of the bridge's messages; a description of another version is not read. */
export const BRIDGE_WIRE_VERSION = 1;

const base64url = (bytes: number) =>
  z
    .string()
    .length(Math.ceil((bytes * 4) / 3))
    .regex(/^[A-Za-z0-9_-]+$/, 'base64url');
/** A random nonce of 16 bytes. */
export const nonceSchema = base64url(16);
/** An HMAC-SHA256, base64url. */
export const macSchema = base64url(32);
/** An X25519 public key, base64url. */
export const publicKeySchema = base64url(32);
const timeSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const localIdSchema = deviceIdentitySchema.shape.id;
/** The most a signed body may hold (a hello with 64 tools fits many times over; the broker's limit is lower still). */
const MAX_BODY = 200_000;

/** `{prefix}/{bridge}/availability`, retained; the last will says offline. */
export const availabilitySchema = z.object({ state: z.enum(['online', 'offline']) });
export type Availability = z.infer<typeof availabilitySchema>;

/** `…/device/{id}/description`, retained: what the device is and offers, its id already `BRIDGE.ID`. Unsigned: it is what a scan shows. */
export const descriptionSchema = z.object({
  v: z.literal(BRIDGE_WIRE_VERSION),
  bridge: bridgeNameSchema,
  device: localIdSchema,
  hello: helloResultSchema,
  /** Whether the device answers its bridge now (the bridge being online is its availability). */
  online: z.boolean(),
});
export type Description = z.infer<typeof descriptionSchema>;

/** Host → bridge on `…/device/{id}/request`: a RequestFrame as text (`body`), signed with the pairing's key. */
export const signedRequestSchema = z.object({
  host: hostIdSchema,
  ts: timeSchema,
  nonce: nonceSchema,
  body: z.string().max(MAX_BODY),
  mac: macSchema,
});
export type SignedRequest = z.infer<typeof signedRequestSchema>;

/** Bridge → host on the request's response topic: a ResponseFrame as text, signed, bound to the request's nonce. */
export const signedResponseSchema = z.object({
  device: localIdSchema,
  nonce: nonceSchema,
  body: z.string().max(MAX_BODY),
  mac: macSchema,
});
export type SignedResponse = z.infer<typeof signedResponseSchema>;

/** Bridge → host on `…/device/{id}/event/{host}`: an EventFrame as text, signed with that host's key. */
export const signedEventSchema = z.object({
  ts: timeSchema,
  nonce: nonceSchema,
  body: z.string().max(MAX_BODY),
  mac: macSchema,
});
export type SignedEvent = z.infer<typeof signedEventSchema>;

/** Host → bridge on `…/device/{id}/grant/{host}`, retained: `{grant}` as text, signed; a later `ts` replaces an earlier one. */
export const signedGrantSchema = signedRequestSchema;
export type SignedGrant = z.infer<typeof signedGrantSchema>;

/** What a grant message's body says: the actions the host lets its agent use on the device. */
export const grantBodySchema = z.object({
  grant: z.union([z.literal('all'), z.array(nameSchema).max(MAX_DEVICE_TOOLS)]),
});

/** Host → bridge on `{prefix}/{bridge}/pair`: its key share, proven with the pairing code (which never travels). */
export const pairRequestSchema = z.object({
  v: z.literal(BRIDGE_WIRE_VERSION),
  host: hostIdSchema,
  publicKey: publicKeySchema,
  nonce: nonceSchema,
  proof: macSchema,
});
export type PairRequest = z.infer<typeof pairRequestSchema>;

/** Bridge → host: its key share, proven with the new key (so the host knows the bridge had the code), or why not. */
export const pairReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), publicKey: publicKeySchema, nonce: nonceSchema, proof: macSchema }),
  z.object({ ok: z.literal(false), reason: z.string().max(500) }),
]);
export type PairReply = z.infer<typeof pairReplySchema>;

/** The body schemas, read from their signed text once its signature checked. */
export const BODY_SCHEMAS = {
  request: requestFrameSchema,
  response: responseFrameSchema,
  event: eventFrameSchema,
  grant: grantBodySchema,
} as const;

/** A message read with its schema, or why it could not be (too big, not JSON, not that shape). */
export type WireRead<T> = { ok: true; value: T } | { ok: false; detail: string };

/** Reads untrusted text (a payload, a signed body) as JSON of `schema`, refusing more than `maxBytes`. */
export function readWire<T>(schema: ZodType<T>, text: string, maxBytes: number): WireRead<T> {
  const parsed = parseJsonLine(text, maxBytes);
  if (!parsed.ok) return { ok: false, detail: parsed.detail };
  const checked = schema.safeParse(parsed.value);
  if (!checked.success)
    return {
      ok: false,
      detail: checked.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`)
        .join('; '),
    };
  return { ok: true, value: checked.data };
}
