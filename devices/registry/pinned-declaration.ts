import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../../core/agent/canonical-json.ts';
import { deviceToolSchema, MAX_DEVICE_TOOLS, type DeviceTool } from '../protocol/frame-schema.ts';
import { profileSourceSchema } from '../profiles/resolve-profile.ts';
import { linkWiringSchema, type LinkWiring } from '../links/link-wiring.ts';

/**
 * What a person agreed to when they paired (or last trusted) a device: the tools it declared, with
 * their schemas and `confirm` flags, for a profile file its content, and for a device whose way in
 * says where its commands go (a topic, a payload) that wiring. The device is held to it.
 */
export const pinnedDeclarationSchema = z.strictObject({
  tools: z.array(deviceToolSchema).max(MAX_DEVICE_TOOLS),
  profile: profileSourceSchema.optional(),
  wiring: linkWiringSchema.optional(),
});
export type PinnedDeclaration = z.infer<typeof pinnedDeclarationSchema>;

/**
 * sha256 (hex) of the canonical JSON of the tools a device declares, schemas and flags included, and
 * of its wiring when it has one: what a front end gives back so that what is paired or trusted is
 * exactly what the person was shown.
 */
export function declarationHash(tools: readonly DeviceTool[], wiring?: LinkWiring): string {
  const hashed = wiring === undefined ? tools : { tools, wiring };
  return createHash('sha256').update(canonicalJson(hashed), 'utf8').digest('hex');
}

/** Whether two pinned declarations say the same (key order aside). */
export function samePinned(a: PinnedDeclaration | undefined, b: PinnedDeclaration | undefined): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}
