import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { createToolApi } from '../../../core/batch/create-tool-api.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

describe('ToolAPI calls sharing one signal', () => {
  it('add no abort listener to the caller signal, however many run at once (a sequence group of 20)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    let allStarted!: () => void;
    const running = new Promise<void>((resolve) => (allStarted = resolve));
    const tool: ToolDefinition = {
      name: 'wait',
      description: 'waits',
      parameters: { type: 'object', properties: {} },
      parallelSafe: true,
      handler: async () => {
        if (++started === 20) allStarted();
        await gate;
        return 'ok';
      },
    };
    const api = createToolApi({ tools: () => [tool] });
    const controller = new AbortController();
    const calls = Array.from({ length: 20 }, () =>
      api.call({ conversationId: 'c1', caller: 'sequences', signal: controller.signal }, 'wait', {}),
    );
    await running;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    release();
    expect((await Promise.all(calls)).every((outcome) => outcome.ok)).toBe(true);
  });

  it('still stops every running call when the shared signal aborts', async () => {
    const tool: ToolDefinition = {
      name: 'forever',
      description: 'never ends',
      parameters: { type: 'object', properties: {} },
      handler: () => new Promise(() => undefined),
    };
    const api = createToolApi({ tools: () => [tool] });
    const controller = new AbortController();
    const calls = Array.from({ length: 3 }, () =>
      api.call({ conversationId: 'c1', caller: 'sequences', signal: controller.signal }, 'forever', {}),
    );
    controller.abort(new Error('stop'));
    expect((await Promise.all(calls)).map((outcome) => (outcome.ok ? 'ok' : outcome.error.reason))).toEqual([
      'aborted',
      'aborted',
      'aborted',
    ]);
  });
});
