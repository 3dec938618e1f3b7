import { describe, expect, it } from 'vitest';
import { mergeParameterSchemas } from '../../../devices/tools/merge-parameter-schemas.ts';

describe('mergeParameterSchemas', () => {
  it('keeps a schema all devices share as it is', () => {
    const schema = { type: 'object' as const, properties: { on: { type: 'boolean' as const } }, required: ['on'] };
    expect(
      mergeParameterSchemas([schema, { required: ['on'], properties: { on: { type: 'boolean' } }, type: 'object' }]),
    ).toBe(schema);
  });

  it('widens so every device’s arguments pass: loosest bounds, united enums, integer with number, common required', () => {
    expect(
      mergeParameterSchemas([
        {
          type: 'object',
          properties: {
            channel: { type: 'integer', minimum: 1, maximum: 4 },
            mode: { type: 'string', enum: ['eco', 'boost'] },
            level: { type: 'integer' },
            colour: { type: 'string' },
          },
          required: ['channel', 'mode'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            channel: { type: 'integer', minimum: 0, maximum: 8 },
            mode: { type: 'string', enum: ['boost', 'frost'] },
            level: { type: 'number', maximum: 10 },
          },
          required: ['channel'],
        },
      ]),
    ).toEqual({
      type: 'object',
      properties: {
        channel: { type: 'integer', minimum: 0, maximum: 8 },
        mode: { type: 'string', enum: ['eco', 'boost', 'frost'] },
        level: { type: 'number' },
        colour: { type: 'string' },
      },
      required: ['channel'],
    });
  });

  it('drops a type the devices disagree on rather than refuse what one of them takes', () => {
    expect(mergeParameterSchemas([{ type: 'string' }, { type: 'boolean' }])).toEqual({});
  });
});
