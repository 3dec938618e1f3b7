import { describe, expect, it } from 'vitest';
import type { DeviceSummary } from '../../../host/contract/api-contract.ts';
import { addDeviceEvent, withGranted } from '../../../renderer/state/device-events-reducer.ts';

function device(id: string, extra: Partial<DeviceSummary> = {}): DeviceSummary {
  return { id, alias: id, kind: 'door_sensor', path: `/dev/${id}`, online: true, tools: ['read'], ...extra };
}

const opened = (deviceId: string, n: number) =>
  ({ type: 'device/event', deviceId, event: 'opened', data: { n } }) as const;

describe('addDeviceEvent', () => {
  it("adds the event to that device's recent events only, keeping the last ten", () => {
    let devices = [device('door-1'), device('door-2', { recentEvents: [] })];
    for (let n = 1; n <= 12; n++) devices = addDeviceEvent(devices, opened('door-1', n), 1000 + n);
    expect(devices[0]?.recentEvents?.map((event) => event.data.n)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(devices[0]?.recentEvents?.at(-1)).toEqual({ event: 'opened', data: { n: 12 }, at: 1012 });
    expect(devices[1]?.recentEvents).toEqual([]);
  });

  it('leaves the list as it is for a device it does not have, and a left-out pairing untouched', () => {
    const devices = [device('door-1', { status: 'left-out', source: 'paired' })];
    expect(addDeviceEvent(devices, opened('door-9', 1), 1)).toBe(devices);
    expect(addDeviceEvent(devices, opened('door-1', 1), 1)[0]?.recentEvents).toBeUndefined();
  });
});

describe('withGranted', () => {
  it("replaces a paired device's grants, not those of a device named on the command line with the same id", () => {
    const devices = [
      device('lamp-1', { source: 'command-line', granted: ['set'] }),
      device('lamp-1', { source: 'paired', granted: [] }),
    ];
    expect(withGranted(devices, 'lamp-1', ['set']).map((entry) => entry.granted)).toEqual([['set'], ['set']]);
    expect(withGranted(devices, 'lamp-1', []).map((entry) => entry.granted)).toEqual([['set'], []]);
  });
});
