import { describe, expect, it } from 'vitest';
import { call, reasonOf, runWith, tool } from './batch-helpers.ts';

/** `{"a":{"a":…1…}}` as a value, built with a loop (a recursive builder would overflow first). */
function nestedObjects(depth: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value as Record<string, unknown>;
}

describe('the batch bounds every call’s arguments before anything walks them', () => {
  it('answers arguments nested more than 64 levels invalid_json naming the bound, and never runs the handler', async () => {
    const ran: string[] = [];
    const deep = tool('deep', { handler: () => void ran.push('deep') });
    for (const depth of [65, 300, 60_000]) {
      const { results, events } = await runWith({ tools: [deep], calls: [call(0, 'deep', nestedObjects(depth))] });
      expect(reasonOf(results[0]!)).toBe('invalid_json');
      expect(results[0]!.callOutcome).toBe('not_sent');
      expect(results[0]!.outcome).toMatchObject({
        error: { detail: 'deep: the arguments are nested more than 64 levels deep; at most 64 are allowed' },
      });
      // What was journaled of the call is bounded too: no event carries the deep value.
      const declared = events.find((event) => event.type === 'batch/start');
      expect(declared).toMatchObject({ calls: [{ args: { $notKept: expect.stringMatching(/64 levels/) } }] });
    }
    expect(ran).toEqual([]);
    const { results } = await runWith({ tools: [deep], calls: [call(0, 'deep', nestedObjects(64))] });
    expect(reasonOf(results[0]!)).toBe('ok');
    expect(ran).toEqual(['deep']);
  });

  it('answers arguments over the size setting invalid_json naming the setting and its value, and never runs them', async () => {
    const ran: string[] = [];
    const echo = tool('echo', { handler: (args) => void ran.push(String(args.t).length.toString()) });
    const pipeline = { argumentBounds: () => ({ maxBytes: 1_024 }) };
    // `{"t":"…"}` is 8 bytes around the text: 1,016 characters fill the bound exactly.
    const { results } = await runWith({
      tools: [echo],
      calls: [call(0, 'echo', { t: 'x'.repeat(1_017) }), call(1, 'echo', { t: 'x'.repeat(1_016) })],
      pipeline,
    });
    expect(results.map(reasonOf)).toEqual(['invalid_json', 'ok']);
    expect(results[0]!.outcome).toMatchObject({
      error: {
        detail:
          'echo: the arguments take more than 1,024 bytes as JSON; at most 1,024 are allowed (the setting maxToolArgumentBytes)',
      },
    });
    expect(ran).toEqual(['1016']);
  });

  it('still answers a call of a tool that does not exist not_found, whatever its arguments', async () => {
    const { results } = await runWith({
      tools: [],
      calls: [call(0, 'nope', { t: 'x'.repeat(250_000) })],
      pipeline: { argumentBounds: () => ({ maxBytes: 1_024 }) },
    });
    expect(reasonOf(results[0]!)).toBe('not_found');
  });
});
