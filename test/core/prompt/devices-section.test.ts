import { describe, expect, it } from 'vitest';
import { DEVICES_HEADING, deviceLine, listedDevices } from '../../../core/prompt/devices-section.ts';

describe('the devices section of the prompt', () => {
  it('writes a device with its alias and the actions not granted on it', () => {
    expect(
      deviceLine({ id: 'lamp-3', kind: 'lamp', alias: 'Desk lamp', state: 'online', notGranted: ['get', 'set'] }),
    ).toBe('- lamp-3 (lamp, "Desk lamp"): online; not granted: get, set');
    expect(deviceLine({ id: 'thermometer-1', kind: 'thermometer', state: 'offline', notGranted: [] })).toBe(
      '- thermometer-1 (thermometer): offline',
    );
  });

  it('reads back the devices a system prompt lists, and stops at the end of the section', () => {
    const system = [
      'You control a home.',
      DEVICES_HEADING,
      '- lamp-1 (lamp): online',
      '- lamp-3 (lamp, "Desk lamp"): online; not granted: get, set',
      '- relay-1 (relay_board): reconnecting; not granted: set',
      '',
      '- not-a-device (lamp): online',
    ].join('\n');
    expect(listedDevices(system)).toEqual([
      { id: 'lamp-1', kind: 'lamp', state: 'online', notGranted: [] },
      { id: 'lamp-3', kind: 'lamp', alias: 'Desk lamp', state: 'online', notGranted: ['get', 'set'] },
      { id: 'relay-1', kind: 'relay_board', state: 'reconnecting', notGranted: ['set'] },
    ]);
  });

  it('lists nothing when the prompt has no devices section', () => {
    expect(listedDevices('- lamp-1 (lamp): online')).toEqual([]);
  });
});
