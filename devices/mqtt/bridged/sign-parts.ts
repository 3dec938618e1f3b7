import { createHmac, timingSafeEqual } from 'node:crypto';

/** One field a signature covers; the first part of every signed list names what is signed (`request`). */
export type SignedPart = string | number;

/**
 * HMAC-SHA256 of `parts` under `key`, base64url. The parts are joined as a JSON array of strings and
 * numbers, which has exactly one spelling: what is signed cannot be read two ways.
 */
export function signParts(key: Buffer, parts: readonly SignedPart[]): string {
  return createHmac('sha256', key).update(JSON.stringify(parts)).digest('base64url');
}

/** Whether `mac` is `signParts(key, parts)`, compared in constant time. */
export function verifyParts(key: Buffer, parts: readonly SignedPart[], mac: string): boolean {
  const expected = Buffer.from(signParts(key, parts), 'base64url');
  const given = Buffer.from(mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
