import { describe, expect, it } from 'vitest';
import { scanSummary } from '../../../renderer/state/scan-summary.ts';

describe('scanSummary', () => {
  it('counts every choice the list shows: the ports and the devices found behind a broker', () => {
    expect(scanSummary({ ports: 5, found: 4 })).toBe('5 ports and 4 devices found; none was opened.');
    expect(scanSummary({ ports: 1, found: 1 })).toBe('1 port and 1 device found; none was opened.');
    expect(scanSummary({ ports: 5, found: 0 })).toBe('5 ports found; none was opened.');
  });
});
