import { describe, expect, it } from 'vitest';
import { wireMsPerTransaction } from './modbus-bench.ts';

describe('wireMsPerTransaction', () => {
  it('counts an 8-byte request, a 5 + 2n-byte reply and a 3.5-character gap after each, at 10 bits a byte', () => {
    // Two registers: 8 + 9 + 2 × 3.5 = 24 characters = 240 bits: 25 ms at 9600 baud, 2.083 ms at 115200.
    expect(wireMsPerTransaction(9600, 2)).toBeCloseTo(25, 10);
    expect(wireMsPerTransaction(115_200, 2)).toBeCloseTo(240 / 115.2, 10);
    // 125 registers: 8 + 255 + 7 = 270 characters: 281.25 ms at 9600.
    expect(wireMsPerTransaction(9600, 125)).toBeCloseTo(281.25, 10);
  });
});
