import { z } from 'zod';
import type { JsonSchema } from '../../core/tools/json-schema.ts';
import { unsafeCharacters } from '../../core/text/safe-text.ts';

/** The largest frame (one line, newline excluded) either side may send; longer lines are dropped and counted. */
export const MAX_FRAME_BYTES = 16 * 1024;

/** The smallest request limit a device may state: room for any hello request (`{"id":…,"op":"hello"}`, 16-digit id). */
export const MIN_FRAME_BYTES = 64;

/** The event a device sends when it (re)starts; the host answers it by asking hello again. Never shown as a device event. */
export const READY_EVENT = 'ready';

const jsonSchemaType = z.enum(['object', 'string', 'number', 'integer', 'boolean', 'array', 'null']);

/**
 * Text the model reads and sends back exactly (an argument's name, one of its choices): escaping it
 * would change what calls must say, so a character `safeText` would escape is refused instead.
 */
function readAsIs(text: z.ZodString): z.ZodType<string> {
  return text.superRefine((value, context) => {
    const why = actsInstead(value);
    if (why) context.addIssue({ code: 'custom', message: why });
  });
}

function actsInstead(text: string): string | undefined {
  const unsafe = unsafeCharacters(text);
  return unsafe.length > 0 ? `holds a character that would act instead of being read (${unsafe.join(' ')})` : undefined;
}

/** The subset of JSON Schema that core understands, as a device may declare it (unknown keys are dropped). */
export const jsonSchemaSchema: z.ZodType<JsonSchema> = z.lazy(() =>
  z.object({
    type: jsonSchemaType.optional(),
    description: z.string().max(1000).optional(),
    properties: z
      .record(z.string().max(64), jsonSchemaSchema)
      .superRefine((properties, context) => {
        for (const name of Object.keys(properties)) {
          const why = actsInstead(name);
          if (why) context.addIssue({ code: 'custom', path: [name], message: why });
        }
      })
      .optional(),
    required: z.array(readAsIs(z.string().max(64))).optional(),
    items: jsonSchemaSchema.optional(),
    enum: z.array(z.union([readAsIs(z.string()), z.number(), z.boolean()])).optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    additionalProperties: z.boolean().optional(),
    default: z.unknown().optional(),
  }),
);

/** Lower-case words joined by single `-` or `_`; safe inside tool names (`lamp__set`, `door_sensor__read`). */
export const nameSchema = z
  .string()
  .max(40)
  .regex(/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/, 'lower-case word(s) joined by single - or _');

export const deviceIdentitySchema = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, . _ -'),
  kind: nameSchema,
  model: z.string().max(100),
  firmware: z.string().max(100),
});
/** Who a device says it is; compared at every reconnect with what was paired. */
export type DeviceIdentity = z.infer<typeof deviceIdentitySchema>;

export const deviceToolSchema = z.object({
  name: nameSchema,
  description: z.string().max(2000),
  parameters: jsonSchemaSchema,
  parallelSafe: z.boolean().default(false),
  serial: z.boolean().default(false),
  /** The person confirms each call before it runs (switching mains, unlocking a door). */
  confirm: z.boolean().optional(),
  /** A call only reads: it changes nothing on the device (a `get`, a `read`). Absent: it may change something. */
  readOnly: z.boolean().optional(),
  /** A call needs the person's approval PIN by default (a relay channel that opens a door), as its declaration says. */
  needsPin: z.boolean().optional(),
});
/** One action a device offers, as declared in its hello. */
export type DeviceTool = z.infer<typeof deviceToolSchema>;

/** The most actions one device may declare: every one is a tool in every request while the device is granted it. */
export const MAX_DEVICE_TOOLS = 64;

export const helloResultSchema = z.object({
  device: deviceIdentitySchema,
  tools: z.array(deviceToolSchema).max(MAX_DEVICE_TOOLS, `a device declares at most ${MAX_DEVICE_TOOLS} tools`),
  /** The device answers tagged requests out of order, so the host may keep several in flight. */
  concurrent: z.boolean().default(false),
  /**
   * The longest request line (newline excluded) the device reads; the host never sends a longer
   * one. Absent (devices older than this field): MAX_FRAME_BYTES.
   */
  maxFrameBytes: z.number().int().min(MIN_FRAME_BYTES).optional(),
});
/** The answer to `hello`: identity, tools, and whether the device takes concurrent requests. */
export type HelloResult = z.infer<typeof helloResultSchema>;

const requestId = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const requestFrameSchema = z.discriminatedUnion('op', [
  z.object({ id: requestId, op: z.literal('hello') }),
  z.object({
    id: requestId,
    op: z.literal('call'),
    tool: nameSchema,
    args: z.record(z.string(), z.unknown()).default({}),
  }),
]);
/** Host → device. */
export type RequestFrame = z.infer<typeof requestFrameSchema>;
/** A request without its id (the session numbers it). */
export type RequestBody = { op: 'hello' } | { op: 'call'; tool: string; args: Record<string, unknown> };

export const deviceErrorSchema = z.object({
  reason: z.string().max(40),
  detail: z.string().max(2000).optional(),
  field: z.string().max(64).optional(),
});
/** A failure reported by the device itself (its reason is mapped onto ToolError reasons by the session). */
export type DeviceError = z.infer<typeof deviceErrorSchema>;

export const responseFrameSchema = z.union([
  z.object({ id: requestId, ok: z.literal(true), result: z.unknown() }),
  z.object({ id: requestId, ok: z.literal(false), error: deviceErrorSchema }),
]);
/** Device → host, answering the request with the same id. */
export type ResponseFrame = z.infer<typeof responseFrameSchema>;

export const eventFrameSchema = z.object({
  event: nameSchema,
  data: z.record(z.string(), z.unknown()).default({}),
});
/** Device → host, unsolicited (a button press, a door opening). */
export type EventFrame = z.infer<typeof eventFrameSchema>;
