import { describe, expect, it } from 'vitest';
import {
  choicesOf,
  elicitationContentIssues,
  elicitationDefaultsOf,
} from '../../../host/contract/elicitation-content.ts';
import { elicitationFormSchema, type ElicitationForm } from '../../../host/contract/elicitation-contract.ts';

const FORM: ElicitationForm = elicitationFormSchema.parse({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
      default: 'l',
    },
    count: { type: 'integer', minimum: 1, maximum: 5 },
    extras: { type: 'array', items: { anyOf: [{ const: 'ice', title: 'Ice' }] }, maxItems: 1 },
  },
  required: ['name', 'count'],
});

describe('an answer checked against its form', () => {
  it('names each field that is missing, of the wrong type, out of bounds or not offered', () => {
    expect(elicitationContentIssues(FORM, { count: 2.5, size: 'm', extras: ['ice', 'lemon'], colour: 'red' })).toEqual([
      { path: 'colour', message: 'colour is not a field of this form: leave it out' },
      { path: 'name', message: 'Name is required' },
      { path: 'size', message: 'size must be one of: Small, Large' },
      { path: 'count', message: 'count must be a whole number' },
      { path: 'extras', message: 'extras offers no choice "lemon"' },
    ]);
    expect(elicitationContentIssues(FORM, { name: 'Al', count: 5, extras: ['ice'] })).toEqual([]);
  });

  it('takes the defaults that fit their field, and offers the titled choices', () => {
    expect(elicitationDefaultsOf(FORM)).toEqual({ size: 'l' });
    // As a server sent it, before the form is checked whole: a field no form can have gives no default.
    expect(
      elicitationDefaultsOf({
        properties: {
          size: { type: 'string', enum: ['s', 'l'], default: 'xl' },
          dim: { type: 'number', maximum: 5, default: 9 },
          on: { type: 'boolean', default: true },
          where: { type: 'object', default: 'hall' },
          room: { type: 'string', default: 'hall' },
        },
      }),
    ).toEqual({ on: true, room: 'hall' });
    expect(choicesOf(FORM.properties.size!)).toEqual([
      { value: 's', title: 'Small' },
      { value: 'l', title: 'Large' },
    ]);
  });

  it('refuses a form over 50 fields, and a field of a kind no window can show', () => {
    const fields = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`f${index}`, { type: 'boolean' }]));
    expect(elicitationFormSchema.safeParse({ type: 'object', properties: fields }).success).toBe(false);
    const nested = { type: 'object', properties: { inner: { type: 'object', properties: {} } } };
    expect(elicitationFormSchema.safeParse(nested).success).toBe(false);
  });
});
