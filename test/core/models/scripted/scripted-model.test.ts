import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ScriptedModel } from '../../../../core/models/scripted/scripted-model.ts';
import type { ModelRequest } from '../../../../core/models/model-adapter.ts';

async function drain(model: ScriptedModel, request: ModelRequest): Promise<void> {
  for await (const part of model.stream(request, { signal: new AbortController().signal })) void part;
}

function requestWith(history: number): ModelRequest {
  return {
    system: 'You run a home.',
    // Each turn's request carries the whole history, as in `serve`: that is what made the heap grow.
    messages: Array.from({ length: history }, (_, index) => ({
      role: 'user' as const,
      text: `turn ${index} `.repeat(50),
    })),
    tools: [],
  };
}

// A real garbage collection, so the test can see whether an old request is still held.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('ScriptedModel', () => {
  it(`keeps only the last ${ScriptedModel.KEPT_REQUESTS} requests, newest last, and counts them all`, async () => {
    const model = new ScriptedModel({ replies: [] });
    const sent = Array.from({ length: 300 }, (_, index) => requestWith(index % 5));
    for (const request of sent) await drain(model, request);
    expect(model.requestCount).toBe(300);
    expect(model.requests).toHaveLength(ScriptedModel.KEPT_REQUESTS);
    expect(model.requests).toEqual(sent.slice(-ScriptedModel.KEPT_REQUESTS));
    expect(model.requests.at(-1)).toBe(sent[299]);
  });

  it('lets an old request be garbage-collected once newer ones have pushed it out', async () => {
    const model = new ScriptedModel({ replies: [] });
    // Made inside a function so no variable of this test holds the first request.
    const sendFirst = async (): Promise<WeakRef<ModelRequest>> => {
      const first = requestWith(200);
      await drain(model, first);
      return new WeakRef(first);
    };
    const firstRef = await sendFirst();
    for (let turn = 0; turn < ScriptedModel.KEPT_REQUESTS + 1; turn += 1) await drain(model, requestWith(1));
    // WeakRefs stay alive until the current job ends: collect in a later task.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(firstRef.deref()).toBeUndefined();
  });
});
