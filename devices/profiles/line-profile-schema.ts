import { z } from 'zod';
import { deviceToolSchema, nameSchema } from '../protocol/frame-schema.ts';

const captureType = z.enum(['string', 'integer', 'number', 'boolean']);

/** A response line pattern: a regular expression with named groups, typed by `captures`. */
export const responsePatternSchema = z.object({
  pattern: z.string().max(500),
  /** Named groups and how to read them ('1'/'0', 'on'/'off', 'true'/'false' are booleans). */
  captures: z.record(z.string(), captureType).default({}),
  /** When set, a match is a failure with this reason; the `detail` group (if any) explains it. */
  error: z.enum(['failed', 'type', 'required', 'denied']).optional(),
});

/** A device tool as a hello declares it, plus how it maps onto command and reply lines. */
export const profileToolSchema = deviceToolSchema.extend({
  /** Command template: `{arg}` is replaced by the argument, formatted by `formats`. */
  command: z.string().max(500),
  /** Per argument, a map from the JSON value (as a string) to what goes on the wire (`{"true":"1","false":"0"}`). */
  formats: z.record(z.string(), z.record(z.string(), z.string())).default({}),
  responses: z.array(responsePatternSchema).min(1),
});

export const lineProfileSchema = z.object({
  name: z.string().max(100),
  kind: nameSchema,
  model: z.string().max(100),
  lineEnding: z.enum(['\n', '\r\n', '\r']).default('\r\n'),
  /** How the device says who it is: the `id` and `firmware` groups of the response. */
  identify: z.object({ command: z.string().max(200), response: responsePatternSchema }),
  tools: z.array(profileToolSchema).min(1).max(64),
});

/** A declarative description of a device that speaks text lines (AT-style) instead of JSON. */
export type LineProfile = z.infer<typeof lineProfileSchema>;
export type ProfileTool = z.infer<typeof profileToolSchema>;
export type ResponsePattern = z.infer<typeof responsePatternSchema>;

/** Validates a profile from untrusted JSON-shaped data; throws a readable error listing the first problem. */
export function parseLineProfile(value: unknown): LineProfile {
  const parsed = lineProfileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid line profile: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown problem'}`);
  }
  for (const tool of parsed.data.tools) {
    for (const response of tool.responses) new RegExp(response.pattern);
  }
  new RegExp(parsed.data.identify.response.pattern);
  return parsed.data;
}
