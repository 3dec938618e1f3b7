import { describe, expect, it } from 'vitest';
import { apiContract } from '../../../host/contract/api-contract.ts';

/** Every id of the API's inputs, with a valid rest of the input, and the bound it must keep. */
const ID_FIELDS = [
  { method: 'conversations/events', field: 'conversationId', max: 200, rest: {} },
  { method: 'conversations/rename', field: 'conversationId', max: 200, rest: { title: 'Kitchen' } },
  { method: 'conversations/delete', field: 'conversationId', max: 200, rest: {} },
  { method: 'chat/send', field: 'conversationId', max: 200, rest: { text: 'hi' } },
  { method: 'chat/abort', field: 'conversationId', max: 200, rest: {} },
  { method: 'approval/answer', field: 'approvalId', max: 200, rest: { approved: true } },
  { method: 'plugins/set-enabled', field: 'name', max: 100, rest: { enabled: true } },
  { method: 'plugins/set-trusted', field: 'name', max: 100, rest: { trusted: true } },
] as const;

describe('API contract: ids are bounded', () => {
  for (const { method, field, max, rest } of ID_FIELDS) {
    it(`${method} accepts a ${field} of ${max} characters and refuses ${max + 1}`, () => {
      const schema = apiContract[method].input;
      expect(schema.safeParse({ ...rest, [field]: 'a'.repeat(max) }).success).toBe(true);
      const refused = schema.safeParse({ ...rest, [field]: 'a'.repeat(max + 1) });
      expect(refused.success).toBe(false);
      expect(refused.error?.issues[0]?.path).toEqual([field]);
    });
  }
});

describe('API contract: setting keys', () => {
  it('accepts only the keys of the settings table, whatever their length', () => {
    const schema = apiContract['settings/set'].input;
    expect(schema.safeParse({ key: 'maxSteps', value: 3 }).success).toBe(true);
    expect(schema.safeParse({ key: 'a'.repeat(100_000), value: 3 }).success).toBe(false);
    expect(schema.safeParse({ key: 'maxStep', value: 3 }).error?.issues[0]?.path).toEqual(['key']);
  });
});
