import { describe, expect, it } from 'vitest';
import { AT_RELAY_BOARD_PROFILE } from '../../../devices/profiles/at-relay-board-profile.ts';
import { createFirmwares } from '../../../devices/simulator/device-catalog.ts';
import { findSimulatedDevice, simulatedDevice } from '../../../devices/simulator/simulated-device.ts';

describe('simulatedDevice', () => {
  it('takes the id and kind from the firmware, and gives a relay board the AT line profile the host needs', () => {
    const [lamp, relay] = createFirmwares({ kinds: ['lamp', 'relay'], latencyMs: 0, ids: ['hall', 'board'] });
    expect(simulatedDevice(lamp!, '/tmp/x/lamp-1')).toEqual({
      id: 'hall',
      kind: 'lamp',
      path: '/tmp/x/lamp-1',
      firmware: lamp,
    });
    expect(simulatedDevice(relay!, 'sim:board')).toEqual({
      id: 'board',
      kind: 'relay',
      path: 'sim:board',
      firmware: relay,
      profile: AT_RELAY_BOARD_PROFILE,
    });
  });
});

describe('findSimulatedDevice', () => {
  it('finds a device by id and names an id it does not simulate', () => {
    const devices = createFirmwares({ kinds: ['lamp', 'lamp'], latencyMs: 0 }).map((firmware, index) =>
      simulatedDevice(firmware, `sim:${index}`),
    );
    expect(findSimulatedDevice(devices, 'lamp-2').path).toBe('sim:1');
    expect(() => findSimulatedDevice(devices, 'lamp-3')).toThrow('no simulated device lamp-3');
  });
});
