import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { approvalPinSchema, hashApprovalPin, verifyApprovalPin } from '../../../host/secrets/approval-pin-hash.ts';

describe('hashApprovalPin', () => {
  it('stores a salted scrypt hash that node:crypto alone reproduces, never the PIN', () => {
    const stored = hashApprovalPin('482916');
    expect(stored).not.toContain('482916');
    const [name, n, r, p, salt, hash] = stored.split('$');
    expect(name).toBe('scrypt');
    // Recomputed here from the parts, independently of verifyApprovalPin.
    const key = scryptSync('482916', Buffer.from(salt!, 'base64url'), 32, { N: Number(n), r: Number(r), p: Number(p) });
    expect(key.toString('base64url')).toBe(hash);
  });

  it('salts each hash anew, so one PIN stored twice differs', () => {
    expect(hashApprovalPin('1234')).not.toBe(hashApprovalPin('1234'));
  });
});

describe('verifyApprovalPin', () => {
  it('accepts the PIN a hash was made from and refuses any other', () => {
    const stored = hashApprovalPin('1234');
    expect(verifyApprovalPin('1234', stored)).toBe(true);
    expect(verifyApprovalPin('1235', stored)).toBe(false);
    expect(verifyApprovalPin('12345', stored)).toBe(false);
    expect(verifyApprovalPin('', stored)).toBe(false);
  });

  it('verifies nothing against a stored value of another shape', () => {
    expect(verifyApprovalPin('1234', '1234')).toBe(false);
    expect(verifyApprovalPin('1234', 'scrypt$3$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });
});

describe('approvalPinSchema', () => {
  it('takes 4 to 12 digits and nothing else', () => {
    expect(approvalPinSchema.safeParse('0000').success).toBe(true);
    expect(approvalPinSchema.safeParse('123456789012').success).toBe(true);
    for (const bad of ['123', '1234567890123', '12a4', ' 1234', '12 34', '١٢٣٤'])
      expect(approvalPinSchema.safeParse(bad).success, bad).toBe(false);
  });
});
