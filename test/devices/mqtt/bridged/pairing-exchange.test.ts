import { describe, expect, it } from 'vitest';
import {
  answerPairing,
  codeKeyOf,
  newPairingCode,
  pairingCodeSchema,
  startPairing,
} from '../../../../devices/mqtt/bridged/pairing-exchange.ts';
import { pairReplySchema, pairRequestSchema } from '../../../../devices/mqtt/bridged/bridge-wire.ts';

const host = '0123456789abcdef';

describe('pairing codes', () => {
  it('are four groups of four letters and digits, valid codes, and differ each time', () => {
    const codes = Array.from({ length: 20 }, () => newPairingCode());
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      expect(pairingCodeSchema.safeParse(code).success).toBe(true);
    }
    expect(new Set(codes).size).toBe(20);
  });

  it('are read as typed: lower case, no dashes, O for 0 and I or L for 1 mean the same code', () => {
    expect(codeKeyOf('7kq2m9xd4htrpw30')).toEqual(codeKeyOf('7KQ2-M9XD-4HTR-PW30'));
    expect(codeKeyOf('7KQ2-M9XD-4HTR-PW3O')).toEqual(codeKeyOf('7KQ2-M9XD-4HTR-PW30'));
    expect(codeKeyOf('1KQ2-M9XD-4HTR-PW30')).toEqual(codeKeyOf('LKQ2-M9XD-4HTR-PW30'));
    expect(codeKeyOf('7KQ2-M9XD-4HTR-PW31')).not.toEqual(codeKeyOf('7KQ2-M9XD-4HTR-PW30'));
    expect(pairingCodeSchema.safeParse('7KQ2 M9XD').success).toBe(false);
    expect(pairingCodeSchema.safeParse('7KQ2-M9XD').success).toBe(false);
  });
});

describe('the pairing exchange', () => {
  it('gives host and bridge the same key when the host holds the code, and a new key each time', () => {
    const code = newPairingCode();
    const keys: Buffer[] = [];
    for (let round = 0; round < 2; round += 1) {
      const started = startPairing({ bridge: 'cellar', host, code });
      expect(pairRequestSchema.parse(started.request)).toEqual(started.request);
      const answered = answerPairing({ bridge: 'cellar', codeKey: codeKeyOf(code), request: started.request });
      expect(answered.ok).toBe(true);
      if (!answered.ok) return;
      expect(pairReplySchema.parse(answered.reply)).toEqual(answered.reply);
      const key = started.finish(answered.reply);
      expect(key).toEqual(answered.key);
      expect(key).toHaveLength(32);
      keys.push(key);
    }
    expect(keys[0]).not.toEqual(keys[1]);
  });

  it('never puts the code, its key or the pairing key on the wire', () => {
    const code = newPairingCode();
    const started = startPairing({ bridge: 'cellar', host, code });
    const answered = answerPairing({ bridge: 'cellar', codeKey: codeKeyOf(code), request: started.request });
    if (!answered.ok) throw new Error('refused');
    const wire = JSON.stringify([started.request, answered.reply]);
    for (const secret of [
      code,
      code.replace(/-/g, ''),
      codeKeyOf(code).toString('base64url'),
      codeKeyOf(code).toString('hex'),
      answered.key.toString('base64url'),
      answered.key.toString('hex'),
    ])
      expect(wire).not.toContain(secret);
  });

  it('is refused by the bridge for a wrong code, or a request made for another bridge', () => {
    const code = newPairingCode();
    const wrong = startPairing({ bridge: 'cellar', host, code: newPairingCode() });
    const refused = answerPairing({ bridge: 'cellar', codeKey: codeKeyOf(code), request: wrong.request });
    expect(refused).toMatchObject({
      ok: false,
      reply: { ok: false, reason: expect.stringContaining('does not match') },
    });
    const elsewhere = startPairing({ bridge: 'attic', host, code });
    expect(answerPairing({ bridge: 'cellar', codeKey: codeKeyOf(code), request: elsewhere.request }).ok).toBe(false);
  });

  it('is refused by the bridge when the request was changed on its way (another key share)', () => {
    const code = newPairingCode();
    const started = startPairing({ bridge: 'cellar', host, code });
    const other = startPairing({ bridge: 'cellar', host, code: newPairingCode() });
    const request = { ...started.request, publicKey: other.request.publicKey };
    expect(answerPairing({ bridge: 'cellar', codeKey: codeKeyOf(code), request }).ok).toBe(false);
  });

  it('fails on the host when the reply is not from a bridge holding the code (a stand-in answering)', () => {
    const code = newPairingCode();
    const started = startPairing({ bridge: 'cellar', host, code });
    // A stand-in that swaps in its own key share cannot prove it, lacking the code.
    const standIn = answerPairing({
      bridge: 'cellar',
      codeKey: codeKeyOf(newPairingCode()),
      request: startPairing({ bridge: 'cellar', host, code: 'AAAA-AAAA-AAAA-AAAA' }).request,
    });
    const genuine = answerPairing({ bridge: 'cellar', codeKey: codeKeyOf(code), request: started.request });
    if (!genuine.ok) throw new Error('refused');
    expect(standIn.ok).toBe(false);
    const forged = { ...genuine.reply, nonce: startPairing({ bridge: 'x', host, code }).request.nonce };
    expect(() => started.finish(forged)).toThrow(/not from a bridge that holds this code/);
    expect(() => started.finish({ ok: false, reason: 'the pairing code does not match' })).toThrow(
      /refused the pairing/,
    );
  });
});
