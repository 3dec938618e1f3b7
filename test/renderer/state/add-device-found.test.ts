import { describe, expect, it } from 'vitest';
import { closedAddDevice, nextAddDevice } from '../../../renderer/state/add-device-flow.ts';

const found = {
  path: 'z2m:kitchen-lamp',
  source: 'z2m',
  about: 'a Zigbee2MQTT device',
  id: 'kitchen-lamp',
  kind: 'lamp',
  model: 'LED1545G12',
  online: true,
  paired: [],
};

describe('the Add-device flow with devices found behind a broker', () => {
  it('keeps what the scan found beside the ports, and none from a host that does not say', () => {
    const open = nextAddDevice(closedAddDevice, { type: 'open' });
    const scanning = nextAddDevice(open, { type: 'scan', request: 1 });
    const answered = nextAddDevice(scanning, {
      type: 'scanned',
      request: 1,
      answer: { ports: [], warnings: [], profiles: [], found: [found] },
    });
    expect(answered.scan.found).toEqual([found]);
    const older = nextAddDevice(nextAddDevice(open, { type: 'scan', request: 2 }), {
      type: 'scanned',
      request: 2,
      answer: { ports: [], warnings: [], profiles: [] },
    });
    expect(older.scan.found).toEqual([]);
  });
});
