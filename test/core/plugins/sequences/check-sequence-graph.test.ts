import { describe, expect, it } from 'vitest';
import { checkSequenceGraph } from '../../../../core/plugins/sequences/check-sequence-graph.ts';
import type { Sequence } from '../../../../core/plugins/sequences/sequence-schema.ts';

/** A sequence that calls the given sequences, each in a group of its own. */
function calling(name: string, ...targets: string[]): Sequence {
  return {
    name,
    description: `${name} calls ${targets.join(', ') || 'nothing'}`,
    groups: [
      { id: 'own', calls: [{ tool: 'lamp__get' }] },
      ...targets.map((target, index) => ({ id: `g${index}`, calls: [{ sequence: target }] })),
    ],
  };
}

describe('checkSequenceGraph', () => {
  it('finds nothing wrong in a diamond (two paths to one sequence are not a cycle)', () => {
    const sequences = [
      calling('top', 'left', 'right'),
      calling('left', 'bottom'),
      calling('right', 'bottom'),
      calling('bottom'),
    ];
    expect(checkSequenceGraph({ from: 'top', sequences })).toEqual([]);
  });

  it('names the caller and the target of a missing sequence', () => {
    const problems = checkSequenceGraph({
      from: 'top',
      sequences: [calling('top', 'middle'), calling('middle', 'ghost')],
    });
    expect(problems).toEqual([
      {
        kind: 'missing',
        caller: 'middle',
        target: 'ghost',
        message: "sequence 'middle' calls 'ghost', which does not exist",
      },
    ]);
  });

  it('reports a missing start as missing with no caller', () => {
    expect(checkSequenceGraph({ from: 'nope', sequences: [] })).toEqual([
      { kind: 'missing', caller: null, target: 'nope', message: "there is no sequence named 'nope'" },
    ]);
  });

  it('names the path of a cycle, including a sequence that calls itself', () => {
    const sequences = [
      calling('start', 'ping'),
      calling('ping', 'pong'),
      calling('pong', 'ping'),
      calling('selfish', 'selfish'),
    ];
    expect(checkSequenceGraph({ from: 'start', sequences })).toEqual([
      {
        kind: 'cycle',
        path: ['ping', 'pong', 'ping'],
        message: 'sequences call each other in a cycle: ping → pong → ping',
      },
    ]);
    expect(checkSequenceGraph({ from: 'selfish', sequences })).toEqual([
      expect.objectContaining({ kind: 'cycle', path: ['selfish', 'selfish'] }),
    ]);
  });

  it('reports one cycle once when every sequence is checked', () => {
    const problems = checkSequenceGraph({ sequences: [calling('ping', 'pong'), calling('pong', 'ping')] });
    expect(problems.map((problem) => problem.kind)).toEqual(['cycle']);
  });

  it('allows a chain of exactly maxCallDepth sequence calls and refuses one more', () => {
    // s0 → s1 → s2 → s3 → s4 is 4 hops; s0 → … → s5 is 5.
    const chain = (length: number): Sequence[] =>
      Array.from({ length: length + 1 }, (_, index) =>
        index < length ? calling(`s${index}`, `s${index + 1}`) : calling(`s${index}`),
      );
    expect(checkSequenceGraph({ from: 's0', sequences: chain(4), maxCallDepth: 4 })).toEqual([]);
    expect(checkSequenceGraph({ from: 's0', sequences: chain(5), maxCallDepth: 4 })).toEqual([
      {
        kind: 'depth',
        path: ['s0', 's1', 's2', 's3', 's4', 's5'],
        message: 'the call chain s0 → s1 → s2 → s3 → s4 → s5 is 5 sequence calls deep; at most 4 are allowed',
      },
    ]);
    expect(checkSequenceGraph({ from: 's0', sequences: chain(2), maxCallDepth: 1 })).toEqual([
      expect.objectContaining({ kind: 'depth', path: ['s0', 's1', 's2'] }),
    ]);
  });
});
