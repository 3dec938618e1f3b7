import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareProfileSources } from '../../../devices/pairing/compare-profile-sources.ts';
import { profileSource } from '../../../devices/profiles/resolve-profile.ts';
import { parseProfileText } from '../../../devices/ways-in/builtin-profile-formats.ts';
import { REPO_ROOT } from '../../helpers/run-cli.ts';

/** The shipped relay board profile (it asks before each switch), as a person's file would hold it. */
const relayText = readFileSync(path.join(REPO_ROOT, 'devices/modbus/profiles/relay-8.json'), 'utf8');
const relay = JSON.parse(relayText) as Record<string, unknown> & { switches: Record<string, unknown>[] };

/** The profile file as read now, with `edit` applied to its JSON. */
function now(edit: (profile: typeof relay) => unknown, name = '/home/me/relay.json') {
  const text = JSON.stringify(edit(structuredClone(relay)), null, 2);
  return { ...parseProfileText(name, text), source: profileSource(text) };
}

const pinned = profileSource(relayText);

describe('compareProfileSources', () => {
  it('finds nothing when the file holds the same profile, however it is formatted', () => {
    expect(compareProfileSources({ pinned, current: now((profile) => profile) })).toEqual({
      verdict: 'same',
      differences: [],
    });
  });

  it('calls confirm_switching: false a change of the set action', () => {
    expect(
      compareProfileSources({ pinned, current: now((profile) => ({ ...profile, confirm_switching: false })) }),
    ).toEqual({
      verdict: 'changed',
      differences: [
        { action: 'set', change: 'confirm', stronger: false, detail: 'set: no longer asks you before each use' },
      ],
    });
  });

  it('calls confirm_switching turned on stronger', () => {
    const unasked = profileSource(JSON.stringify({ ...relay, confirm_switching: false }));
    expect(compareProfileSources({ pinned: unasked, current: now((profile) => profile) })).toEqual({
      verdict: 'stronger',
      differences: [{ action: 'set', change: 'confirm', stronger: true, detail: 'set: now asks you before each use' }],
    });
  });

  it('calls a switch moved to another coil a change of the profile, though the actions read the same', () => {
    const moved = now((profile) => {
      profile.switches[2] = { ...profile.switches[2], address: 7 };
      return profile;
    });
    expect(compareProfileSources({ pinned, current: moved })).toEqual({
      verdict: 'changed',
      differences: [
        {
          change: 'profile',
          stronger: false,
          detail: 'profile /home/me/relay.json: its content changed (switches)',
        },
      ],
    });
  });

  it('calls a stronger confirm beside a moved coil a change', () => {
    const unasked = profileSource(JSON.stringify({ ...relay, confirm_switching: false }));
    const current = now((profile) => ({ ...profile, bus: { baud: 19200, parity: 'none', stopbits: 1 } }));
    const { verdict, differences } = compareProfileSources({ pinned: unasked, current });
    expect(verdict).toBe('changed');
    expect(differences.map((difference) => difference.change)).toEqual(['confirm', 'profile']);
    expect(differences[1]?.detail).toBe('profile /home/me/relay.json: its content changed (bus)');
  });

  it('calls a line profile whose command template changed a change of the profile', () => {
    const line = {
      name: 'Door',
      kind: 'door',
      model: 'D-1',
      identify: { command: 'ID?', response: { pattern: '^(?<id>\\w+)$', captures: { id: 'string' } } },
      tools: [
        {
          name: 'lock',
          description: 'Lock the door',
          parameters: { type: 'object' },
          confirm: true,
          command: 'LOCK',
          responses: [{ pattern: '^OK$' }],
        },
      ],
    };
    const before = profileSource(JSON.stringify(line));
    const text = JSON.stringify({ ...line, tools: [{ ...line.tools[0], command: 'UNLOCK' }] });
    const current = { ...parseProfileText('door.json', text), source: profileSource(text) };
    expect(compareProfileSources({ pinned: before, current }).differences).toEqual([
      { change: 'profile', stronger: false, detail: 'profile door.json: its content changed (tools)' },
    ]);
  });

  it('calls it a change when the pinned content no longer reads', () => {
    const broken = profileSource('{"protocol": "modbus-rtu"');
    const { verdict, differences } = compareProfileSources({ pinned: broken, current: now((profile) => profile) });
    expect(verdict).toBe('changed');
    expect(differences[0]?.detail).toMatch(
      /^profile \/home\/me\/relay.json: the content pinned at pairing no longer reads/,
    );
  });
});
