import {
  createHash,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  randomInt,
  type KeyObject,
} from 'node:crypto';
import { z } from 'zod';
import { BRIDGE_WIRE_VERSION, type PairReply, type PairRequest } from './bridge-wire.ts';
import { signParts, verifyParts } from './sign-parts.ts';

/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand survives. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Four groups of four: 16 characters of 5 bits each, 80 bits a guesser must find. */
const CODE_GROUPS = 4;

/** A pairing code as a person types it: letters, digits and `-`, no spaces. */
export const pairingCodeSchema = z
  .string()
  .regex(/^[A-Za-z0-9-]+$/, 'letters, digits and - only')
  .refine((code) => normaliseCode(code).length === CODE_GROUPS * 4, {
    message: `${CODE_GROUPS * 4} letters and digits (as the bridge printed it, e.g. 7KQ2-M9XD-4HTR-PW3C)`,
  });

/** A new one-time pairing code, `XXXX-XXXX-XXXX-XXXX` (80 random bits). */
export function newPairingCode(): string {
  const groups: string[] = [];
  for (let group = 0; group < CODE_GROUPS; group += 1) {
    let text = '';
    for (let index = 0; index < 4; index += 1) text += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    groups.push(text);
  }
  return groups.join('-');
}

/** The code as compared: upper case, no `-`, the letters a person mistakes for digits read as those digits. */
function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/-/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** The key a pairing code stands for (what the bridge keeps, never the code itself). */
export function codeKeyOf(code: string): Buffer {
  return createHash('sha256')
    .update(`home-agent pairing code\n${normaliseCode(code)}`)
    .digest();
}

function newKeyShare(): { privateKey: KeyObject; publicKey: string } {
  const pair = generateKeyPairSync('x25519');
  const x = pair.publicKey.export({ format: 'jwk' }).x;
  if (typeof x !== 'string') throw new Error('x25519 gave no public key');
  return { privateKey: pair.privateKey, publicKey: x };
}

/** The shared secret with a peer's key share; undefined when the share is no usable key. */
function agree(privateKey: KeyObject, peerPublicKey: string): Buffer | undefined {
  try {
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: peerPublicKey }, format: 'jwk' });
    return diffieHellman({ privateKey, publicKey });
  } catch {
    // A share that is no point on the curve (or a low-order one) is refused like a wrong code.
    return undefined;
  }
}

/** Everything both sides sent, in order: what the key and the proofs are bound to. */
function transcript(options: {
  bridge: string;
  host: string;
  hostKey: string;
  hostNonce: string;
  bridgeKey?: string;
  bridgeNonce?: string;
}): string[] {
  return [
    options.bridge,
    options.host,
    options.hostKey,
    options.hostNonce,
    ...(options.bridgeKey !== undefined ? [options.bridgeKey, options.bridgeNonce ?? ''] : []),
  ];
}

/**
 * The pairing key: HKDF over the X25519 secret, salted with the code's key, bound to the transcript.
 * An eavesdropper has neither the secret nor the code; someone who learns the code later still lacks the secret.
 */
function sessionKey(shared: Buffer, codeKey: Buffer, parts: string[]): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, codeKey, `home-agent bridge pairing\n${parts.join('\n')}`, 32));
}

/**
 * The host's half: a pairing request for `bridge` proven with `code` (an HMAC under the code's key;
 * the code itself is not sent), and `finish` that checks the bridge's reply and gives the shared key
 * — or throws saying why the pairing failed.
 */
export function startPairing(options: { bridge: string; host: string; code: string }): {
  request: PairRequest;
  finish(reply: PairReply): Buffer;
} {
  const codeKey = codeKeyOf(options.code);
  const share = newKeyShare();
  const nonce = randomBytes(16).toString('base64url');
  const parts = transcript({ bridge: options.bridge, host: options.host, hostKey: share.publicKey, hostNonce: nonce });
  const request: PairRequest = {
    v: BRIDGE_WIRE_VERSION,
    host: options.host,
    publicKey: share.publicKey,
    nonce,
    proof: signParts(codeKey, ['pair-request', ...parts]),
  };
  return {
    request,
    finish(reply) {
      if (!reply.ok) throw new Error(`the bridge refused the pairing: ${reply.reason}`);
      const shared = agree(share.privateKey, reply.publicKey);
      const all = [...parts, reply.publicKey, reply.nonce];
      const key = shared === undefined ? undefined : sessionKey(shared, codeKey, all);
      if (key === undefined || !verifyParts(key, ['pair-reply', ...all], reply.proof))
        throw new Error('the reply to the pairing request is not from a bridge that holds this code');
      return key;
    },
  };
}

/**
 * The bridge's half: checks the host's proof against the code's key; when it holds, makes its own key
 * share and returns the reply and the shared key. A wrong code gets a refusal that says only that.
 */
export function answerPairing(options: {
  bridge: string;
  codeKey: Buffer;
  request: PairRequest;
}): { ok: true; reply: PairReply; key: Buffer } | { ok: false; reply: PairReply } {
  const { request } = options;
  const parts = transcript({
    bridge: options.bridge,
    host: request.host,
    hostKey: request.publicKey,
    hostNonce: request.nonce,
  });
  const refused = {
    ok: false as const,
    reply: {
      ok: false as const,
      reason: 'the pairing code does not match (is it the latest one the bridge printed?)',
    },
  };
  if (!verifyParts(options.codeKey, ['pair-request', ...parts], request.proof)) return refused;
  const share = newKeyShare();
  const shared = agree(share.privateKey, request.publicKey);
  if (shared === undefined) return refused;
  const nonce = randomBytes(16).toString('base64url');
  const all = [...parts, share.publicKey, nonce];
  const key = sessionKey(shared, options.codeKey, all);
  return {
    ok: true,
    key,
    reply: { ok: true, publicKey: share.publicKey, nonce, proof: signParts(key, ['pair-reply', ...all]) },
  };
}
