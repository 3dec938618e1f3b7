import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../../../renderer/api/api-client.ts';
import { outputOfEnvelope, type AnswerEnvelope } from '../../../renderer/api/output-of-envelope.ts';

/** What outputOfEnvelope threw, for a look at its fields. */
function failureOf(options: { envelope: AnswerEnvelope; status?: number }): ApiCallError {
  try {
    outputOfEnvelope({ method: 'conversations/list', ...options });
  } catch (error) {
    if (error instanceof ApiCallError) return error;
    throw error;
  }
  throw new Error('outputOfEnvelope did not throw');
}

describe('outputOfEnvelope', () => {
  it('returns the output a successful envelope carries', () => {
    const output = outputOfEnvelope({
      method: 'conversations/list',
      envelope: { ok: true, result: { conversations: [] } },
    });
    expect(output).toEqual({ conversations: [] });
  });

  it('turns a failure into an ApiCallError with the method, message, status, field and issues', () => {
    const failure = failureOf({
      envelope: {
        ok: false,
        error: { status: 400, message: 'Model: too long', field: 'model', issues: [{ path: '', message: 'too long' }] },
      },
    });
    expect(failure).toMatchObject({
      method: 'conversations/list',
      message: 'Model: too long',
      status: 400,
      field: 'model',
      issues: [{ path: '', message: 'too long' }],
    });
  });

  it('takes the HTTP status over the envelope’s, and for an older host’s failure that has none', () => {
    expect(failureOf({ envelope: { ok: false, error: { status: 500, message: 'x' } }, status: 401 }).status).toBe(401);
    expect(failureOf({ envelope: { ok: false, error: { message: 'refused' } }, status: 403 }).status).toBe(403);
  });

  it('refuses an output the contract does not allow, naming the method', () => {
    const failure = failureOf({ envelope: { ok: true, result: { conversations: 'none' } } });
    expect(failure.message).toMatch(/^The host's answer to conversations\/list does not match the contract: /);
    expect(failure.status).toBeUndefined();
  });
});
