import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What a PIN may be: 4 to 12 digits (typed on a phone's number pad as easily as at a keyboard). */
export const approvalPinSchema = z
  .string({ error: 'must be a PIN: 4 to 12 digits' })
  .regex(/^[0-9]{4,12}$/, 'must be 4 to 12 digits (0–9), nothing else');

/** scrypt's cost: 2^14 rounds, about 50 ms on a Raspberry Pi 4, so a stolen hash is slow to guess. */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** `scrypt$N$r$p$salt$hash` (salt and hash in base64url): the one stored form of a PIN. */
const storedPattern = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/;

/** The salted scrypt hash of a PIN, as stored; a new random salt each time. */
export function hashApprovalPin(pin: string): string {
  const salt = randomBytes(SALT_BYTES);
  const key = scryptSync(pin, salt, KEY_BYTES, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `pin` is the PIN `stored` was made from (constant-time); false for a stored value of another shape. */
export function verifyApprovalPin(pin: string, stored: string): boolean {
  const parts = storedPattern.exec(stored);
  if (!parts) return false;
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash!, 'base64url');
  const cost = { N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 };
  let key: Buffer;
  try {
    key = scryptSync(pin, Buffer.from(salt!, 'base64url'), expected.length, cost);
  } catch {
    // Parameters scrypt refuses (a hand-edited row) verify nothing.
    return false;
  }
  return key.length === expected.length && timingSafeEqual(key, expected);
}
