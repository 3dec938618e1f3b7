import { describe, expect, it } from 'vitest';
import { compareDeclarations } from '../../../devices/protocol/compare-declarations.ts';
import type { DeviceTool } from '../../../devices/protocol/frame-schema.ts';

/** A door lock as paired: `unlock` asks before each use, `status` does not. */
const unlock: DeviceTool = {
  name: 'unlock',
  description: 'Unlock the front door',
  parameters: { type: 'object', properties: { seconds: { type: 'integer', minimum: 1, maximum: 30 } } },
  parallelSafe: false,
  serial: true,
  confirm: true,
};
const status: DeviceTool = {
  name: 'status',
  description: 'Read whether the door is locked',
  parameters: { type: 'object', properties: {} },
  parallelSafe: true,
  serial: false,
};
const pinned = [unlock, status];

describe('compareDeclarations', () => {
  it('finds nothing when the live declaration says the same, whatever the order of tools and keys', () => {
    const reordered: DeviceTool = {
      confirm: true,
      serial: true,
      parallelSafe: false,
      parameters: { properties: { seconds: { maximum: 30, minimum: 1, type: 'integer' } }, type: 'object' },
      description: 'Unlock the front door',
      name: 'unlock',
    };
    expect(compareDeclarations(pinned, [status, reordered])).toEqual({ verdict: 'same', differences: [] });
  });

  it('takes confirm: false as the same as no confirm', () => {
    const { confirm: _confirm, ...plain } = unlock;
    expect(compareDeclarations([plain], [{ ...plain, confirm: false }]).verdict).toBe('same');
  });

  it('calls a dropped confirm a change: the device no longer asks', () => {
    const { confirm: _confirm, ...weaker } = unlock;
    expect(compareDeclarations(pinned, [weaker, status])).toEqual({
      verdict: 'changed',
      differences: [
        { action: 'unlock', change: 'confirm', stronger: false, detail: 'unlock: no longer asks you before each use' },
      ],
    });
  });

  it('calls an added confirm, a dropped parallelSafe and an added serial stronger: more caution only', () => {
    const live: DeviceTool[] = [unlock, { ...status, confirm: true, parallelSafe: false, serial: true }];
    expect(compareDeclarations(pinned, live)).toEqual({
      verdict: 'stronger',
      differences: [
        { action: 'status', change: 'confirm', stronger: true, detail: 'status: now asks you before each use' },
        { action: 'status', change: 'parallelSafe', stronger: true, detail: 'status: no longer parallel-safe' },
        { action: 'status', change: 'serial', stronger: true, detail: 'status: now runs alone (serial)' },
      ],
    });
  });

  it('calls a loosened parallelSafe or serial a change', () => {
    const live: DeviceTool[] = [{ ...unlock, parallelSafe: true, serial: false }, status];
    expect(compareDeclarations(pinned, live)).toEqual({
      verdict: 'changed',
      differences: [
        {
          action: 'unlock',
          change: 'parallelSafe',
          stronger: false,
          detail: 'unlock: now says it may run beside other calls (parallel-safe)',
        },
        { action: 'unlock', change: 'serial', stronger: false, detail: 'unlock: no longer asks to run alone (serial)' },
      ],
    });
  });

  it('names a tool gone, a tool added, a changed schema and a changed description', () => {
    const open: DeviceTool = { ...status, name: 'open', description: 'Open the garage' };
    const live: DeviceTool[] = [
      {
        ...unlock,
        description: 'Unlock every door',
        parameters: { type: 'object', properties: { seconds: { type: 'integer', minimum: 1, maximum: 3600 } } },
      },
      open,
    ];
    expect(compareDeclarations(pinned, live)).toEqual({
      verdict: 'changed',
      differences: [
        { action: 'open', change: 'added', stronger: false, detail: 'open: a new action, not declared at pairing' },
        { action: 'status', change: 'removed', stronger: false, detail: 'status: no longer declared' },
        {
          action: 'unlock',
          change: 'description',
          stronger: false,
          detail: 'unlock: description was "Unlock the front door", now "Unlock every door"',
        },
        {
          action: 'unlock',
          change: 'parameters',
          stronger: false,
          detail:
            'unlock: parameters were {"properties":{"seconds":{"maximum":30,"minimum":1,"type":"integer"}},"type":"object"}, now {"properties":{"seconds":{"maximum":3600,"minimum":1,"type":"integer"}},"type":"object"}',
        },
      ],
    });
  });

  it('calls it a change when a stronger difference comes with a weaker one', () => {
    const { confirm: _confirm, ...weaker } = unlock;
    const live: DeviceTool[] = [weaker, { ...status, confirm: true }];
    const { verdict, differences } = compareDeclarations(pinned, live);
    expect(verdict).toBe('changed');
    expect(differences.map((difference) => [difference.action, difference.change, difference.stronger])).toEqual([
      ['status', 'confirm', true],
      ['unlock', 'confirm', false],
    ]);
  });

  it('bounds what it quotes of a long description', () => {
    const live: DeviceTool[] = [unlock, { ...status, description: 'x'.repeat(2000) }];
    const [difference] = compareDeclarations(pinned, live).differences;
    expect(difference?.detail.length).toBeLessThan(400);
    expect(difference?.detail).toContain('…');
  });
});
