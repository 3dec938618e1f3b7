import { describe, expect, it } from 'vitest';
import { endpointUrl } from '../../../../core/models/http/endpoint-url.ts';
import { errorBodyMessage } from '../../../../core/models/http/error-body-message.ts';
import { parseRetryAfter, retryDelayMs } from '../../../../core/models/http/retry-delay.ts';

describe('endpointUrl', () => {
  it('adds the version to a bare host and keeps one the base already has', () => {
    expect(
      endpointUrl({
        baseUrl: 'http://127.0.0.1:1234',
        versionPrefix: '/v1',
        path: '/chat/completions',
        onlyOnBareHost: true,
      }),
    ).toBe('http://127.0.0.1:1234/v1/chat/completions');
    expect(
      endpointUrl({
        baseUrl: 'http://127.0.0.1:11434/v1/',
        versionPrefix: '/v1',
        path: '/chat/completions',
        onlyOnBareHost: true,
      }),
    ).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(
      endpointUrl({
        baseUrl: 'https://openrouter.ai/api/v1',
        versionPrefix: '/v1',
        path: '/chat/completions',
        onlyOnBareHost: true,
      }),
    ).toBe('https://openrouter.ai/api/v1/chat/completions');
    expect(endpointUrl({ baseUrl: 'https://proxy.example/anthropic', versionPrefix: '/v1', path: '/messages' })).toBe(
      'https://proxy.example/anthropic/v1/messages',
    );
  });
});

describe('parseRetryAfter and retryDelayMs', () => {
  it('reads seconds and HTTP dates, and prefers the server over backoff', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(retryDelayMs({ attempt: 3, baseDelayMs: 100, retryAfterMs: undefined })).toBe(400);
    expect(retryDelayMs({ attempt: 3, baseDelayMs: 100, retryAfterMs: 7 })).toBe(7);
  });
});

describe('errorBodyMessage', () => {
  it("finds the message in each provider's error shape", () => {
    expect(errorBodyMessage('{"error":{"message":"bad model","type":"invalid_request_error"}}')).toBe('bad model');
    expect(errorBodyMessage('{"error":"model \\"x\\" not found"}')).toBe('model "x" not found');
    expect(errorBodyMessage('[{"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}]')).toBe(
      'models/x is not found',
    );
    expect(errorBodyMessage('<html>Bad Gateway</html>')).toBe('<html>Bad Gateway</html>');
    expect(errorBodyMessage('')).toBe('');
  });
});
