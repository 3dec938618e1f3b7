import { describe, expect, it } from 'vitest';
import { chooseSimulatedIds } from '../../../devices/simulator/choose-simulated-ids.ts';
import type { SimulatedKind } from '../../../devices/simulator/device-catalog.ts';

const HOME: SimulatedKind[] = ['lamp', 'lamp', 'thermometer', 'display'];

/** Written by hand: what is taken, what ran before, and the ids a simulator must give. */
const CASES: { what: string; kinds: SimulatedKind[]; taken: string[]; previous?: string[]; ids: string[] }[] = [
  { what: 'nothing else runs', kinds: HOME, taken: [], ids: ['lamp-1', 'lamp-2', 'thermometer-1', 'display-1'] },
  {
    what: "npm start's home runs",
    kinds: HOME,
    taken: ['lamp-1', 'lamp-2', 'thermometer-1', 'display-1'],
    ids: ['lamp-3', 'lamp-4', 'thermometer-2', 'display-2'],
  },
  { what: 'a gap is filled', kinds: ['lamp', 'lamp'], taken: ['lamp-2'], ids: ['lamp-1', 'lamp-3'] },
  {
    what: 'the ids it had before are kept, though lower ones are free now',
    kinds: HOME,
    taken: [],
    previous: ['lamp-3', 'lamp-4', 'thermometer-2', 'display-2'],
    ids: ['lamp-3', 'lamp-4', 'thermometer-2', 'display-2'],
  },
  {
    what: 'an id it had before that another process took since is given up, and no other device takes a kept id',
    kinds: ['lamp', 'lamp'],
    taken: ['lamp-1'],
    previous: ['lamp-1', 'lamp-2'],
    ids: ['lamp-3', 'lamp-2'],
  },
  {
    what: 'a record of other kinds is not used',
    kinds: ['lamp'],
    taken: [],
    previous: ['lamp-5', 'relay-1'],
    ids: ['lamp-1'],
  },
  {
    what: 'a record naming one id twice keeps it once',
    kinds: ['lamp', 'lamp'],
    taken: [],
    previous: ['lamp-4', 'lamp-4'],
    ids: ['lamp-4', 'lamp-1'],
  },
];

describe('chooseSimulatedIds', () => {
  for (const entry of CASES)
    it(`gives ${entry.ids.join(', ')} when ${entry.what}`, () => {
      expect(
        chooseSimulatedIds({
          kinds: entry.kinds,
          taken: new Set(entry.taken),
          ...(entry.previous ? { previous: entry.previous } : {}),
        }),
      ).toEqual(entry.ids);
    });
});
