import { describe, expect, it } from 'vitest';
import { cutToolSchema } from '../../../../host/plugins/mcp/cut-tool-schema.ts';
import { StderrTail } from '../../../../host/plugins/mcp/stderr-tail.ts';
import { RestartBackoff } from '../../../../host/plugins/mcp/restart-backoff.ts';

describe('cutToolSchema', () => {
  it('keeps only what argument checking and every provider understand', () => {
    expect(
      cutToolSchema({
        type: 'object',
        $schema: 'http://json-schema.org/draft-07/schema#',
        additionalProperties: { type: 'string' },
        properties: {
          mode: { const: 'fast', description: 'd' },
          name: { anyOf: [{ type: 'string', minLength: 1, format: 'email' }, { type: 'null' }], description: 'who' },
          count: { type: ['integer', 'null'], minimum: 0, maximum: 9, default: 3 },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
          any: { $ref: '#/definitions/x' },
          mixed: { enum: ['a', { b: 1 }] },
        },
        required: ['mode', 'mode', 7],
      }),
    ).toEqual({
      cut: false,
      schema: {
        type: 'object',
        properties: {
          mode: { enum: ['fast'], description: 'd' },
          name: { type: 'string', description: 'who' },
          count: { type: 'integer', minimum: 0, maximum: 9, default: 3 },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
          any: {},
          mixed: {},
        },
        required: ['mode'],
      },
    });
  });

  it('walks a chain of anyOf 100,000 deep without overflowing, cutting it at 64 levels', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 100_000; level += 1) schema = { anyOf: [schema, { type: 'null' }] };
    expect(cutToolSchema({ type: 'object', properties: { x: schema } }).cut).toBe(true);
  });
});

describe('StderrTail', () => {
  it('keeps at most its limit, from a line’s start, however much is written', () => {
    const tail = new StderrTail(100);
    for (let line = 0; line < 10_000; line += 1) tail.append(Buffer.from(`line ${line} of the flood\n`));
    const text = tail.read();
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text.startsWith('line ')).toBe(true);
    expect(text.endsWith('line 9999 of the flood\n')).toBe(true);
  });

  it('joins a character split across chunks', () => {
    const tail = new StderrTail();
    const bytes = Buffer.from('é\n');
    tail.append(bytes.subarray(0, 1));
    tail.append(bytes.subarray(1));
    expect(tail.read()).toBe('é\n');
  });
});

describe('RestartBackoff', () => {
  it('waits 1 s, 2 s, 4 s … at most 60 s, and starts over after a connection that lasted 60 s', () => {
    let now = 0;
    const backoff = new RestartBackoff(() => now);
    expect(Array.from({ length: 8 }, () => backoff.failed())).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000,
    ]);
    backoff.ready();
    now += 59_000;
    expect(backoff.failed()).toBe(60_000);
    backoff.ready();
    now += 60_000;
    expect(backoff.failed()).toBe(1_000);
  });
});
