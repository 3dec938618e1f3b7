import { describe, expect, it } from 'vitest';
import { validateSequence, type SequenceProblem } from '../../../../core/plugins/sequences/validate-sequence.ts';

/** A valid two-group sequence; tests change one thing in a copy. */
function morning(): Record<string, unknown> {
  return {
    name: 'morning_routine',
    description: 'Read the temperature, then heat if it is cold.',
    groups: [
      {
        id: 'read',
        calls: [
          { tool: 'thermo__read', slot: 'reading' },
          { tool: 'lamp__get', slot: 'lamp' },
        ],
      },
      {
        id: 'act',
        calls: [
          {
            tool: 'heater__set',
            args: { level: { $slot: 'reading.result.celsius' } },
            when: 'reading.ok && reading.result.celsius < 18',
          },
        ],
      },
    ],
  };
}

function problemsOf(input: unknown): SequenceProblem[] {
  const result = validateSequence(input);
  return result.ok ? [] : result.problems;
}

describe('validateSequence', () => {
  it('accepts a sequence whose later group reads the slots of an earlier one', () => {
    const result = validateSequence(morning());
    expect(result.ok).toBe(true);
  });

  it('names a missing field as required and a wrong type as type', () => {
    const noName = morning();
    delete noName.name;
    expect(problemsOf(noName)).toEqual([expect.objectContaining({ field: 'name', reason: 'required' })]);
    expect(problemsOf({ ...morning(), name: 'Morning Routine' })).toEqual([
      expect.objectContaining({ field: 'name', reason: 'type' }),
    ]);
    expect(problemsOf({ ...morning(), groups: [{ id: 'g', calls: [{ tool: 'x', slots: 'typo' }] }] })).toEqual([
      expect.objectContaining({ field: 'groups[0].calls[0]', reason: 'type' }),
    ]);
  });

  it('refuses a call with neither tool nor sequence, and one with both', () => {
    const sequence = { ...morning(), groups: [{ id: 'g', calls: [{ args: {} }, { tool: 'a', sequence: 'b' }] }] };
    expect(problemsOf(sequence).map((problem) => [problem.field, problem.reason])).toEqual([
      ['groups[0].calls[0].tool', 'required'],
      ['groups[0].calls[1]', 'type'],
    ]);
  });

  it('refuses two groups with the same id', () => {
    const sequence = {
      ...morning(),
      groups: [
        { id: 'g', calls: [{ tool: 'a' }] },
        { id: 'g', calls: [{ tool: 'b' }] },
      ],
    };
    expect(problemsOf(sequence)).toEqual([expect.objectContaining({ field: 'groups[1].id', reason: 'type' })]);
  });

  it('refuses a slot written twice', () => {
    const sequence = {
      ...morning(),
      groups: [
        { id: 'a', calls: [{ tool: 'x', slot: 'reading' }] },
        { id: 'b', calls: [{ tool: 'y', slot: 'reading' }] },
      ],
    };
    const [problem] = problemsOf(sequence);
    expect(problem).toMatchObject({ field: 'groups[1].calls[0].slot', reason: 'type' });
    expect(problem?.detail).toContain('already written by groups[0].calls[0].slot');
  });

  it('refuses a slot read in the same group that writes it (its calls run in parallel)', () => {
    const sequence = {
      ...morning(),
      groups: [
        {
          id: 'only',
          calls: [
            { tool: 'x', slot: 'reading' },
            { tool: 'y', args: { v: { $slot: 'reading.result' } } },
          ],
        },
      ],
    };
    const [problem] = problemsOf(sequence);
    expect(problem).toMatchObject({ field: 'groups[0].calls[1].args.v', reason: 'type' });
    expect(problem?.detail).toContain('same group');
  });

  it('refuses a slot read too early, in a condition and in args nested in an array', () => {
    const sequence = {
      ...morning(),
      groups: [
        { id: 'first', calls: [{ tool: 'y', when: 'later.ok', args: { list: [1, { $slot: 'later.result' }] } }] },
        { id: 'second', calls: [{ tool: 'x', slot: 'later' }] },
      ],
    };
    const problems = problemsOf(sequence);
    expect(problems.map((problem) => problem.field)).toEqual([
      'groups[0].calls[0].args.list[1]',
      'groups[0].calls[0].when',
    ]);
    expect(problems[0]?.detail).toContain('read too early');
  });

  it('refuses a read of a slot no call writes, but lets every call read input', () => {
    expect(
      problemsOf({ ...morning(), groups: [{ id: 'g', calls: [{ tool: 'x', when: 'ghost.ok' }] }] })[0]?.detail,
    ).toContain("no call writes the slot 'ghost'");
    expect(
      problemsOf({
        ...morning(),
        groups: [{ id: 'g', calls: [{ tool: 'x', when: 'input.level > 2', args: { v: { $slot: 'input.level' } } }] }],
      }),
    ).toEqual([]);
  });

  it('refuses a malformed slot reference and a prototype path', () => {
    const extraKey = {
      ...morning(),
      groups: [
        { id: 'a', calls: [{ tool: 'x', slot: 's' }] },
        { id: 'b', calls: [{ tool: 'y', args: { v: { $slot: 's.result', other: 1 } } }] },
      ],
    };
    expect(problemsOf(extraKey)).toEqual([expect.objectContaining({ field: 'groups[1].calls[0].args.v' })]);
    const proto = {
      ...morning(),
      groups: [
        { id: 'a', calls: [{ tool: 'x', slot: 's' }] },
        { id: 'b', calls: [{ tool: 'y', args: { v: { $slot: 's.__proto__' } } }] },
      ],
    };
    expect(problemsOf(proto)).toEqual([expect.objectContaining({ field: 'groups[1].calls[0].args.v' })]);
  });

  it('refuses an invalid condition and each forbidden construct, naming the field', () => {
    const cases: [string, string][] = [
      ['reading.ok &&', 'not a valid expression'],
      ['reading.ok = true', 'not a valid expression'],
      ['reading.result.toString()', 'function calls'],
      ['this.reading', "'this'"],
      ['reading.constructor', 'prototype access'],
      ['reading["__proto__"]', 'prototype access'],
      ['reading[reading.ok]', 'literal key'],
      ['reading.ok ? 1 : 2', 'ConditionalExpression'],
      ['reading.result.level | 1', "'|'"],
      ['typeof reading', 'one expression'],
    ];
    for (const [when, message] of cases) {
      const sequence = {
        ...morning(),
        groups: [
          { id: 'a', calls: [{ tool: 'x', slot: 'reading' }] },
          { id: 'b', calls: [{ tool: 'y', when }] },
        ],
      };
      const problems = problemsOf(sequence);
      expect(problems, when).toHaveLength(1);
      expect(problems[0], when).toMatchObject({ field: 'groups[1].calls[0].when', reason: 'type' });
      expect(problems[0]?.detail, when).toContain(message);
    }
  });

  it('refuses the tools a sequence may not call, by name and by declared output channel', () => {
    const sequence = {
      ...morning(),
      groups: [
        {
          id: 'g',
          calls: [
            { tool: 'output_send__chat' },
            { tool: 'seq_run' },
            { tool: 'spawn_child' },
            { tool: 'plugin_disable' },
            { tool: 'display__show' },
            { tool: 'seq_show' },
          ],
        },
      ],
    };
    const problems = validateSequence(sequence, {
      describeTool: (name) => (name === 'display__show' ? { name, outputChannel: 'hall-display' } : undefined),
    });
    expect(problems.ok ? [] : problems.problems.map((problem) => [problem.field, problem.reason])).toEqual([
      ['groups[0].calls[0].tool', 'unauthorized'],
      ['groups[0].calls[1].tool', 'unauthorized'],
      ['groups[0].calls[2].tool', 'unauthorized'],
      ['groups[0].calls[3].tool', 'unauthorized'],
      ['groups[0].calls[4].tool', 'unauthorized'],
    ]);
  });

  it('does not require the target of a sequence call to exist (mutually calling sequences must be savable)', () => {
    expect(
      validateSequence({
        name: 'ping',
        description: 'Calls pong.',
        groups: [{ id: 'g', calls: [{ sequence: 'pong' }] }],
      }).ok,
    ).toBe(true);
  });
});
