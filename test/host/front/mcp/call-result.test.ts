import { describe, expect, it } from 'vitest';
import { callResultOf, MAX_RESULT_BYTES } from '../../../../host/front/mcp/call-result.ts';

describe('callResultOf', () => {
  it('answers a result object as text and structuredContent, and a failure as isError with its reason', () => {
    expect(
      callResultOf('lamp__get', {
        outcome: { ok: true, value: { device_id: 'lamp-1', result: { on: true } } },
        callOutcome: 'done',
        media: [],
      }),
    ).toEqual({
      content: [{ type: 'text', text: '{"device_id":"lamp-1","result":{"on":true}}' }],
      structuredContent: { device_id: 'lamp-1', result: { on: true } },
    });
    expect(
      callResultOf('lamp__set', {
        outcome: { ok: false, error: { reason: 'timeout', detail: 'no answer in 5 s' } },
        callOutcome: 'unknown',
        media: [],
      }).isError,
    ).toBe(true);
  });

  it('shows a string result by the text rule: a device’s words are read, not obeyed', () => {
    const result = callResultOf('display__read', {
      outcome: { ok: true, value: 'hello\u001b[2J\u202eworld\nnext' },
      callOutcome: 'done',
      media: [],
    });
    expect(result.content).toEqual([{ type: 'text', text: 'hello\\u001b[2J\\u202eworld\nnext' }]);
  });

  it(`leaves out an answer over ${MAX_RESULT_BYTES} bytes, saying the call ran and how it ended`, () => {
    const big = 'x'.repeat(MAX_RESULT_BYTES);
    const ran = callResultOf('seq_run', {
      outcome: { ok: true, value: { log: big } },
      callOutcome: 'done',
      media: [],
    });
    expect(ran.isError).toBeUndefined();
    expect(ran.structuredContent).toBeUndefined();
    // 1,048,576 x twice (text and structured), their JSON and wrapping: counted by hand.
    expect(ran.content).toEqual([
      {
        type: 'text',
        text: `seq_run ran, outcome done, but its answer was ${2 * MAX_RESULT_BYTES + 84} bytes, more than the 1048576 one MCP answer may hold, so it is left out. Do not call it again to see it: ask for less (one device, a shorter list).`,
      },
    ]);
    const image = callResultOf('camera__snap', {
      outcome: { ok: false, error: { reason: 'failed', detail: 'busy' } },
      callOutcome: 'failed',
      media: [{ mimeType: 'image/png', data: 'A'.repeat(MAX_RESULT_BYTES) }],
    });
    expect(image.isError).toBe(true);
    expect((image.content[0] as { text: string }).text).toMatch(
      /^camera__snap failed \(failed\), outcome failed, but its answer was \d+ bytes/,
    );
    expect(image.content).toHaveLength(1);
  });
});
