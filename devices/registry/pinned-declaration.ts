import { z } from 'zod';
import { canonicalJson } from '../../core/agent/canonical-json.ts';
import { deviceToolSchema, MAX_DEVICE_TOOLS } from '../protocol/frame-schema.ts';
import { profileSourceSchema } from '../profiles/resolve-profile.ts';

/**
 * What a person agreed to when they paired (or last trusted) a device: the tools it declared, with
 * their schemas and `confirm` flags, and for a profile file its content. The device is held to it.
 */
export const pinnedDeclarationSchema = z.strictObject({
  tools: z.array(deviceToolSchema).max(MAX_DEVICE_TOOLS),
  profile: profileSourceSchema.optional(),
});
export type PinnedDeclaration = z.infer<typeof pinnedDeclarationSchema>;

/** Whether two pinned declarations say the same (key order aside). */
export function samePinned(a: PinnedDeclaration | undefined, b: PinnedDeclaration | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}
