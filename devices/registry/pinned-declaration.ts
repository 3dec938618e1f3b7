import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../../core/agent/canonical-json.ts';
import { deviceToolSchema, MAX_DEVICE_TOOLS, type DeviceTool } from '../protocol/frame-schema.ts';
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

/**
 * sha256 (hex) of the canonical JSON of the tools a device declares, schemas and flags included:
 * what a front end gives back so that what is paired or trusted is exactly what the person was shown.
 */
export function declarationHash(tools: readonly DeviceTool[]): string {
  return createHash('sha256').update(canonicalJson(tools), 'utf8').digest('hex');
}

/** Whether two pinned declarations say the same (key order aside). */
export function samePinned(a: PinnedDeclaration | undefined, b: PinnedDeclaration | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}
