import { describe, expect, it } from 'vitest';
import {
  compactJson,
  isToolError,
  normaliseToolOutcome,
  renderOutcomeForModel,
} from '../../../core/tools/tool-result.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';

describe('isToolError', () => {
  describe('the legacy form ({ error: … } objects)', () => {
    it('counts an object with an error field as a failure', () => {
      expect(isToolError({ error: 'disk full' })).toBe(true);
      expect(isToolError({ error: { code: 5 }, partial: true })).toBe(true);
    });
    it('counts a plain object as a success', () => {
      expect(isToolError({ status: 'sent', id: 123 })).toBe(false);
      expect(isToolError({ errors: [], error_count: 0 })).toBe(false);
    });
    it('counts a string as a success, even one that reads like an error', () => {
      expect(isToolError('error: nothing happened, as asked')).toBe(false);
    });
  });

  describe('the typed form (ToolError)', () => {
    it('counts a ToolError as a failure, also one from another realm (marked by the registered symbol)', () => {
      expect(isToolError(new ToolError({ reason: 'device_offline' }))).toBe(true);
      const foreign = { [Symbol.for('home-agent.ToolError')]: true, reason: 'failed' };
      expect(isToolError(foreign)).toBe(true);
    });
    it('counts a plain object shaped like error data, without the mark, as a success', () => {
      expect(isToolError({ reason: 'failed', detail: 'looks like an error' })).toBe(false);
    });
    it('counts a string and other plain values as successes', () => {
      expect(isToolError('ok')).toBe(false);
      expect(isToolError(['a'])).toBe(false);
      expect(isToolError(0)).toBe(false);
      expect(isToolError(null)).toBe(false);
    });
  });

  it('treats an empty, null or false error field as no error', () => {
    expect(isToolError({ error: null, value: 1 })).toBe(false);
    expect(isToolError({ error: '' })).toBe(false);
    expect(isToolError({ error: false })).toBe(false);
  });
});

describe('normaliseToolOutcome', () => {
  it('is ok for a returned plain value and keeps it structured', () => {
    const value = { temperature: 21.5, unit: 'C' };
    const outcome = normaliseToolOutcome({ returned: value });
    expect(outcome).toEqual({ ok: true, value: { temperature: 21.5, unit: 'C' } });
    if (outcome.ok) expect(outcome.value).toBe(value);
  });

  it('is not ok for a legacy error object, with its text as the detail and the value kept', () => {
    expect(normaliseToolOutcome({ returned: { error: 'disk full' } })).toEqual({
      ok: false,
      error: { reason: 'failed', detail: 'disk full' },
      value: { error: 'disk full' },
    });
    expect(normaliseToolOutcome({ returned: { error: { code: 5 } } })).toMatchObject({
      ok: false,
      error: { reason: 'failed', detail: '{"code":5}' },
    });
  });

  it('is not ok for a returned or thrown ToolError, which keeps its fields', () => {
    const error = new ToolError({
      reason: 'device_offline',
      field: 'device_id',
      detail: 'lamp-3 is unplugged',
      hint: 'retry later',
    });
    const data = { reason: 'device_offline', field: 'device_id', detail: 'lamp-3 is unplugged', hint: 'retry later' };
    expect(normaliseToolOutcome({ returned: error })).toEqual({ ok: false, error: data });
    expect(normaliseToolOutcome({ thrown: error })).toEqual({ ok: false, error: data });
  });

  it('is not ok for anything thrown', () => {
    expect(normaliseToolOutcome({ thrown: new Error('boom') })).toEqual({
      ok: false,
      error: { reason: 'failed', detail: 'boom' },
    });
    expect(normaliseToolOutcome({ thrown: 'bare string' })).toEqual({
      ok: false,
      error: { reason: 'failed', detail: 'bare string' },
    });
    expect(normaliseToolOutcome({ thrown: { code: 7 } })).toEqual({
      ok: false,
      error: { reason: 'failed', detail: '{"code":7}' },
    });
  });
});

describe('renderOutcomeForModel', () => {
  it('renders an object as compact JSON, never [object Object]', () => {
    expect(
      renderOutcomeForModel({ ok: true, value: { status: 'sent', id: 123, tags: ['a', 'b'], nested: { x: null } } }),
    ).toBe('{"status":"sent","id":123,"tags":["a","b"],"nested":{"x":null}}');
  });

  it('renders a string as itself and other values as JSON', () => {
    expect(renderOutcomeForModel({ ok: true, value: 'the lamp is on' })).toBe('the lamp is on');
    expect(renderOutcomeForModel({ ok: true, value: 21.5 })).toBe('21.5');
    expect(renderOutcomeForModel({ ok: true, value: true })).toBe('true');
    expect(renderOutcomeForModel({ ok: true, value: undefined })).toBe('null');
    expect(renderOutcomeForModel({ ok: true, value: [1, { a: 2 }] })).toBe('[1,{"a":2}]');
  });

  it('renders a failure as a compact error object the model can read field by field', () => {
    expect(
      renderOutcomeForModel({ ok: false, error: { reason: 'required', field: 'device_id', detail: 'missing' } }),
    ).toBe('{"error":{"reason":"required","field":"device_id","detail":"missing"}}');
  });

  it('renders big integers and cyclic values without [object Object]', () => {
    expect(compactJson({ n: 10n })).toBe('{"n":"10"}');
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const text = compactJson(cyclic);
    expect(text).not.toContain('[object');
    expect(() => JSON.parse(text) as unknown).not.toThrow();
  });
});
