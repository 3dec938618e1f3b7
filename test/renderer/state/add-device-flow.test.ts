import { describe, expect, it } from 'vitest';
import type { ProbedDevice } from '../../../host/contract/api-contract.ts';
import { closedAddDevice, nextAddDevice, type AddDeviceInput } from '../../../renderer/state/add-device-flow.ts';

const LAMP: ProbedDevice = {
  path: '/tmp/sim/lamp-1',
  identity: { id: 'lamp-1', kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' },
  actions: [],
  details: [],
};

function run(inputs: AddDeviceInput[]) {
  return inputs.reduce(nextAddDevice, closedAddDevice);
}

describe('the Add device flow', () => {
  it('keeps only the answer of the newest scan', () => {
    const answer = (path: string) => ({
      ports: [{ path, source: 'dev' as const, paired: [] }],
      warnings: [],
      profiles: [],
    });
    const flow = run([
      { type: 'open' },
      { type: 'scan', request: 1 },
      { type: 'scan', request: 2 },
      { type: 'scanned', request: 2, answer: answer('/dev/ttyS1') },
      { type: 'scanned', request: 1, answer: answer('/dev/ttyS0') },
    ]);
    expect(flow.scan).toMatchObject({ status: 'done', ports: [{ path: '/dev/ttyS1' }] });
  });

  it('shows the device a look found, pairs once, and drops a look that was superseded', () => {
    const looked = run([
      { type: 'open' },
      { type: 'probe', request: 3, placement: { path: '/tmp/x' } },
      { type: 'probe', request: 4, placement: { path: LAMP.path } },
      { type: 'probe-failed', request: 3, message: 'no answer' },
      { type: 'probed', request: 4, device: LAMP },
    ]);
    expect(looked.probe).toMatchObject({ status: 'done', device: LAMP, placement: { path: LAMP.path } });
    const pairing = nextAddDevice(looked, { type: 'pair' });
    expect(pairing.pair.status).toBe('pairing');
    expect(nextAddDevice(pairing, { type: 'pair' })).toBe(pairing);
    expect(nextAddDevice(pairing, { type: 'paired', deviceId: 'lamp-1', alias: 'Desk lamp' }).pair).toEqual({
      status: 'done',
      paired: { deviceId: 'lamp-1', alias: 'Desk lamp' },
    });
  });

  it('cannot pair before a device was shown, and goes back to the ports on look-again', () => {
    const open = run([{ type: 'open' }]);
    expect(nextAddDevice(open, { type: 'pair' })).toBe(open);
    const back = run([
      { type: 'open' },
      { type: 'probe', request: 1, placement: { path: LAMP.path } },
      { type: 'probed', request: 1, device: LAMP },
      { type: 'look-again' },
    ]);
    expect(back.probe.status).toBe('idle');
    expect(back.open).toBe(true);
    expect(run([{ type: 'open' }, { type: 'close' }]).open).toBe(false);
  });
});
