import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BridgeStateError, BridgeStateFile } from '../../../../devices/mqtt/bridged/bridge-state-file.ts';
import { codeKeyOf } from '../../../../devices/mqtt/bridged/pairing-exchange.ts';

const host = '0123456789abcdef';
const fileIn = (): string => path.join(mkdtempSync(path.join(tmpdir(), 'bridge-state-')), 'bridge-cellar.json');

describe('BridgeStateFile', () => {
  it('keeps the key of the pending code (never the code), readable by its owner only', () => {
    const file = fileIn();
    const state = BridgeStateFile.open(file);
    const code = state.newPairingCode();
    expect(state.pendingCodeKey()).toEqual(codeKeyOf(code));
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(code);
    expect(text).not.toContain(code.replace(/-/g, ''));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('sees a code made by another process, and uses the code up when a host pairs', () => {
    const file = fileIn();
    const running = BridgeStateFile.open(file);
    const code = BridgeStateFile.open(file).newPairingCode();
    expect(running.pendingCodeKey()).toEqual(codeKeyOf(code));
    running.addHost(host, Buffer.alloc(32, 3), 1);
    expect(running.pendingCodeKey()).toBeUndefined();
    expect(BridgeStateFile.open(file).keyOf(host)).toEqual(Buffer.alloc(32, 3));
  });

  it('keeps a grant only from a message newer than the one it holds', () => {
    const file = fileIn();
    const state = BridgeStateFile.open(file);
    expect(state.setGrant({ host, device: 'lamp-1', grant: ['set'], ts: 10 })).toBe(true);
    expect(state.setGrant({ host, device: 'lamp-1', grant: 'all', ts: 9 })).toBe(false);
    expect(state.setGrant({ host, device: 'lamp-1', grant: 'all', ts: 10 })).toBe(false);
    expect(BridgeStateFile.open(file).grantOf(host, 'lamp-1')).toEqual(['set']);
    expect(state.setGrant({ host, device: 'lamp-1', grant: [], ts: 11 })).toBe(true);
    expect(BridgeStateFile.open(file).grantOf(host, 'lamp-1')).toEqual([]);
  });

  it('refuses a file it did not write, naming it, and leaves it as it was', () => {
    const file = fileIn();
    writeFileSync(file, '{"hosts": 1}');
    expect(() => BridgeStateFile.open(file)).toThrow(BridgeStateError);
    expect(() => BridgeStateFile.open(file)).toThrow(file);
    expect(readFileSync(file, 'utf8')).toBe('{"hosts": 1}');
  });
});

describe('BridgeStateFile across processes', () => {
  it('sees a new code made elsewhere after it paired a host and kept its grant', () => {
    const file = fileIn();
    const running = BridgeStateFile.open(file);
    running.newPairingCode();
    running.addHost(host, Buffer.alloc(32, 1), 1);
    running.setGrant({ host, device: 'lamp-1', grant: [], ts: 5 });
    expect(running.pendingCodeKey()).toBeUndefined();
    const code = BridgeStateFile.open(file).newPairingCode();
    expect(running.pendingCodeKey()).toEqual(codeKeyOf(code));
  });
});
