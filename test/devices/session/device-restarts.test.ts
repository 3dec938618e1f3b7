import { describe, expect, it } from 'vitest';
import { DeviceRestarts } from '../../../devices/session/device-restarts.ts';

describe('DeviceRestarts', () => {
  it('answers true on ready and false once the port closed, and keeps no waiter after either', async () => {
    const restarts = new DeviceRestarts();
    for (let round = 0; round < 1000; round += 1) {
      const next = restarts.nextRestart();
      restarts.ready();
      expect(await next).toBe(true);
    }
    expect(restarts.waiting).toBe(0);

    const last = restarts.nextRestart();
    expect(restarts.waiting).toBe(2);
    restarts.closed();
    expect(await last).toBe(false);
    expect(restarts.waiting).toBe(0);
    // Asked after the close (the loop comes round once more): false at once, nothing kept.
    expect(await restarts.nextRestart()).toBe(false);
    expect(restarts.waiting).toBe(0);
  });

  it('starts a new connection open again after reset', async () => {
    const restarts = new DeviceRestarts();
    restarts.closed();
    restarts.reset();
    const next = restarts.nextRestart();
    restarts.ready();
    expect(await next).toBe(true);
  });
});
