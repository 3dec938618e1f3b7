import { describe, expect, it } from 'vitest';
import { readCommonFlags } from '../../../../host/front/command-line/common-flags.ts';

const devices = (...device: string[]) => readCommonFlags({ device }).devices;

describe('--device', () => {
  it('takes a bare path, a line profile, and a Modbus unit with its options in any order', () => {
    expect(devices('/dev/ttyACM0')).toEqual([{ path: '/dev/ttyACM0' }]);
    expect(devices('/dev/ttyUSB1,profile=at-relay-4')).toEqual([{ path: '/dev/ttyUSB1', profile: 'at-relay-4' }]);
    const expected = {
      path: '/dev/ttyUSB0',
      profile: 'eastron-sdm120',
      options: { unit: 1, baud: 9600, parity: 'even', stopbits: 2 },
    };
    expect(devices('/dev/ttyUSB0,profile=eastron-sdm120,unit=1,baud=9600,parity=even,stopbits=2')).toEqual([expected]);
    expect(devices('/dev/ttyUSB0,stopbits=2,parity=even,unit=1,baud=9600,profile=eastron-sdm120')).toEqual([expected]);
    expect(devices('./my-meter.json,x,profile=./my-meter.json,unit=7')).toEqual([
      { path: './my-meter.json,x', profile: './my-meter.json', options: { unit: 7 } },
    ]);
  });

  it.each([
    ['/dev/ttyUSB0,unit=1', 'unit, baud, parity and stopbits need a Modbus profile (profile=eastron-sdm120)'],
    ['/dev/ttyUSB0,profile=relay-8,unit=0', "unit must be a unit id 1–247, got '0'"],
    ['/dev/ttyUSB0,profile=relay-8,unit=one', "unit must be a unit id 1–247, got 'one'"],
    ['/dev/ttyUSB0,profile=relay-8,unit=1,baud=fast', "baud must be a baud rate such as 9600, got 'fast'"],
    ['/dev/ttyUSB0,profile=relay-8,unit=1,parity=mark', "parity must be none, even or odd, got 'mark'"],
    ['/dev/ttyUSB0,profile=relay-8,unit=1,stopbits=3', "stopbits must be 1 or 2, got '3'"],
    ['/dev/ttyUSB0,profile=relay-8,slave=1', "unknown option 'slave'"],
    ['/dev/ttyUSB0,profile=relay-8,profile=at-relay-4', "'profile' is given twice"],
    ['/dev/ttyUSB0,profile=', "'profile' has no value"],
  ])('refuses %s, naming what is wrong', (flag, message) => {
    expect(() => devices(flag)).toThrow(message);
    expect(() => devices(flag)).toThrow(`--device ${flag}:`);
  });
});
