import { describe, expect, it } from 'vitest';
import { validateArguments } from '../../../core/tools/validate-arguments.ts';
import type { JsonSchema } from '../../../core/tools/json-schema.ts';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    device_id: { type: 'string' },
    on: { type: 'boolean' },
    brightness: { type: 'integer', minimum: 0, maximum: 100 },
    level: { type: 'number' },
    mode: { type: 'string', enum: ['warm', 'cold'] },
    color: {
      type: 'object',
      properties: { r: { type: 'number' }, g: { type: 'number' }, b: { type: 'number' } },
      required: ['r', 'g', 'b'],
    },
    scenes: { type: 'array', items: { type: 'string' } },
    steps: { type: 'array', items: { type: 'object', properties: { at: { type: 'integer' } }, required: ['at'] } },
  },
  required: ['device_id', 'on'],
};

function check(args: Record<string, unknown>) {
  return validateArguments({ toolName: 'lamp__set', schema, args });
}

function problem(args: Record<string, unknown>) {
  const result = check(args);
  if (result.ok) throw new Error(`expected a problem for ${JSON.stringify(args)}`);
  return result.error;
}

describe('validateArguments', () => {
  it('accepts valid arguments and returns them unchanged in value', () => {
    expect(check({ device_id: 'lamp-1', on: true, brightness: 40, mode: 'warm', extra: 'kept' })).toEqual({
      ok: true,
      args: { device_id: 'lamp-1', on: true, brightness: 40, mode: 'warm', extra: 'kept' },
    });
  });

  it('reports a missing required field by name, saying it is required and what type it takes', () => {
    const error = problem({ on: true });
    expect(error.reason).toBe('required');
    expect(error.field).toBe('device_id');
    expect(error.detail).toContain('lamp__set');
    expect(error.detail).toContain('device_id');
    expect(error.hint).toContain('(string)');
  });

  it('counts a null required field as missing', () => {
    expect(problem({ device_id: null, on: true })).toMatchObject({ reason: 'required', field: 'device_id' });
  });

  it('coerces the boolean forms models send: "true"/"false", 1/0', () => {
    for (const [sent, expected] of [
      ['true', true],
      ['false', false],
      [1, true],
      [0, false],
      [true, true],
      [false, false],
    ] as const) {
      expect(check({ device_id: 'l', on: sent }), String(sent)).toEqual({
        ok: true,
        args: { device_id: 'l', on: expected },
      });
    }
  });

  it('rejects other values for a boolean, naming the field and what was expected', () => {
    for (const sent of ['yes', 2, 'TRUE ', [], {}]) {
      const error = problem({ device_id: 'l', on: sent });
      expect(error.reason).toBe('type');
      expect(error.field).toBe('on');
      expect(error.detail).toMatch(/on must be a boolean/);
    }
  });

  it('coerces numeric strings for numbers and integers', () => {
    expect(check({ device_id: 'l', on: true, brightness: '42', level: '-2.5' })).toEqual({
      ok: true,
      args: { device_id: 'l', on: true, brightness: 42, level: -2.5 },
    });
    expect(check({ device_id: 'l', on: true, level: ' 7 ' })).toMatchObject({ ok: true, args: { level: 7 } });
  });

  it('rejects non-numeric text, a fraction for an integer, and values out of range', () => {
    expect(problem({ device_id: 'l', on: true, level: 'abc' })).toMatchObject({ reason: 'type', field: 'level' });
    expect(problem({ device_id: 'l', on: true, level: '' })).toMatchObject({ reason: 'type', field: 'level' });
    expect(problem({ device_id: 'l', on: true, level: 'Infinity' })).toMatchObject({ reason: 'type', field: 'level' });
    expect(problem({ device_id: 'l', on: true, brightness: '4.5' }).detail).toMatch(/brightness must be an integer/);
    expect(problem({ device_id: 'l', on: true, brightness: 101 }).detail).toMatch(/brightness must be at most 100/);
    expect(problem({ device_id: 'l', on: true, brightness: -1 }).detail).toMatch(/brightness must be at least 0/);
  });

  it('does not coerce numbers into strings', () => {
    expect(problem({ device_id: 7, on: true })).toMatchObject({ reason: 'type', field: 'device_id' });
  });

  it('rejects a value outside an enum, listing the allowed values', () => {
    const error = problem({ device_id: 'l', on: true, mode: 'hot' });
    expect(error).toMatchObject({ reason: 'type', field: 'mode' });
    expect(error.detail).toContain('"warm", "cold"');
    expect(error.detail).toContain('"hot"');
  });

  it('validates nested objects with their own required fields and coercion', () => {
    expect(check({ device_id: 'l', on: true, color: { r: '255', g: 0, b: 10 } })).toMatchObject({
      ok: true,
      args: { color: { r: 255, g: 0, b: 10 } },
    });
    expect(problem({ device_id: 'l', on: true, color: { r: 1, b: 2 } })).toMatchObject({
      reason: 'required',
      field: 'color.g',
    });
    expect(problem({ device_id: 'l', on: true, color: 'red' })).toMatchObject({ reason: 'type', field: 'color' });
    expect(problem({ device_id: 'l', on: true, color: { r: 1, g: 'x', b: 2 } })).toMatchObject({
      reason: 'type',
      field: 'color.g',
    });
  });

  it('validates arrays item by item, naming the position', () => {
    expect(check({ device_id: 'l', on: true, scenes: ['evening', 'night'] })).toMatchObject({ ok: true });
    expect(problem({ device_id: 'l', on: true, scenes: ['evening', 2] })).toMatchObject({
      reason: 'type',
      field: 'scenes[1]',
    });
    expect(problem({ device_id: 'l', on: true, scenes: 'evening' })).toMatchObject({ reason: 'type', field: 'scenes' });
    expect(problem({ device_id: 'l', on: true, steps: [{ at: 1 }, {}] })).toMatchObject({
      reason: 'required',
      field: 'steps[1].at',
    });
    expect(check({ device_id: 'l', on: true, steps: [{ at: '3' }] })).toMatchObject({
      ok: true,
      args: { steps: [{ at: 3 }] },
    });
  });

  it('does not change the arguments it was given', () => {
    const args = { device_id: 'l', on: 'true', color: { r: '1', g: 2, b: 3 } };
    check(args);
    expect(args).toEqual({ device_id: 'l', on: 'true', color: { r: '1', g: 2, b: 3 } });
  });

  it('treats a schema without a type as an object schema', () => {
    const result = validateArguments({
      toolName: 't',
      schema: { properties: { n: { type: 'number' } }, required: ['n'] },
      args: {},
    });
    expect(result.ok).toBe(false);
  });
});
