import { describe, expect, it } from 'vitest';
import { describeDeviceState } from '../../../core/tools/describe-device-state.ts';

/** Written by hand: what devices report, and how a person reads it. */
const CASES: [unknown, string][] = [
  [{ on: false, brightness: 100 }, 'off, brightness 100 %'],
  [{ on: true, brightness: 30 }, 'on, brightness 30 %'],
  [{ channel: 2, on: true }, 'on, channel 2'],
  [{ celsius: 21.5, humidity: 45 }, '21.5 °C, humidity 45 %'],
  [{ open: false }, 'closed'],
  [{ text: 'Hi', shown: ['Hi'] }, 'text "Hi", shown ["Hi"]'],
  [{ voltage_v: 229.8, relay_1: true }, 'relay 1 on, voltage v 229.8'],
  [{}, 'done, with nothing more to report'],
  [42, '42'],
];

describe('describeDeviceState', () => {
  for (const [state, words] of CASES)
    it(`reads ${JSON.stringify(state)} as "${words}"`, () => {
      expect(describeDeviceState(state)).toBe(words);
    });
});
