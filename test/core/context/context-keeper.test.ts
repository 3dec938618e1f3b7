import { describe, expect, it } from 'vitest';
import { ContextKeeper } from '../../../core/context/context-keeper.ts';
import { MIN_LEARNED_WINDOW_TOKENS } from '../../../core/context/learned-window-floor.ts';
import { InMemoryContextMemory } from '../../../core/context/context-memory.ts';
import { documentedContextWindow } from '../../../core/models/documented-context-window.ts';
import type { ModelAdapter, ModelContextInfo } from '../../../core/models/model-adapter.ts';
import { numCtxSetting } from '../../../core/models/ollama/ollama-settings.ts';

const DEFAULT_OLLAMA_NUM_CTX = numCtxSetting.default;

const never = new AbortController().signal;

/** An adapter that only says where it is and counts its look-ups (the keeper never streams). */
function modelAt(context: Partial<ModelContextInfo> & { says?: number }): ModelAdapter & { lookups: number } {
  const adapter = {
    label: `${context.provider ?? 'openai'}:${context.model ?? 'm'}`,
    lookups: 0,
    context: {
      provider: context.provider ?? 'openai',
      baseUrl: context.baseUrl ?? 'http://127.0.0.1:8000/v1',
      model: context.model ?? 'm',
      ...(context.maxTokens !== undefined ? { maxTokens: context.maxTokens } : {}),
      ...(context.contextLengthSetting ? { contextLengthSetting: context.contextLengthSetting } : {}),
      lookupWindow: async () => {
        adapter.lookups += 1;
        return context.says;
      },
    },
    stream: () => {
      throw new Error('not streamed');
    },
  };
  return adapter;
}

describe('documentedContextWindow', () => {
  it('knows the hosted models by name, dated and routed ones too', () => {
    expect(documentedContextWindow('gpt-4o-mini-2024-07-18')).toBe(128_000);
    expect(documentedContextWindow('gpt-4.1-nano')).toBe(1_047_576);
    expect(documentedContextWindow('gpt-4-0613')).toBe(8_192);
    expect(documentedContextWindow('o1-mini')).toBe(128_000);
    expect(documentedContextWindow('o3-mini')).toBe(200_000);
    expect(documentedContextWindow('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(documentedContextWindow('anthropic/claude-3.5-sonnet')).toBe(200_000);
    expect(documentedContextWindow('gemini-2.5-flash')).toBe(1_048_576);
    expect(documentedContextWindow('models/gemini-1.5-pro-002')).toBe(2_097_152);
    expect(documentedContextWindow('llama3.1:8b')).toBeUndefined();
  });
});

describe('ContextKeeper', () => {
  it('fits to the window the server says, keeping an eighth for the reply, at 3.5 bytes a token before calibration', async () => {
    const keeper = new ContextKeeper({ memory: new InMemoryContextMemory() });
    const model = modelAt({ says: 8000 });
    const budget = await keeper.budget(model, {}, never);
    expect(budget).toEqual({
      windowTokens: 8000,
      source: 'server',
      replyTokens: 1000,
      bytesPerToken: 3.5,
      calibrated: false,
      budgetBytes: 7000 * 3.5,
    });
    // The request's own reply cap is the room kept, when it sends one.
    expect((await keeper.budget(modelAt({ says: 8000, model: 'capped', maxTokens: 500 }), {}, never)).replyTokens).toBe(
      500,
    );
  });

  it('asks the server once per base URL and model, and not at all when contextTokens is set', async () => {
    const keeper = new ContextKeeper({ memory: new InMemoryContextMemory() });
    const model = modelAt({ says: 8000 });
    await keeper.budget(model, {}, never);
    await keeper.budget(model, {}, never);
    expect(model.lookups).toBe(1);
    const set = modelAt({ says: 8000, model: 'other' });
    expect(await keeper.budget(set, { contextTokens: 6000 }, never)).toMatchObject({
      windowTokens: 6000,
      source: 'setting',
    });
    expect(set.lookups).toBe(0);
  });

  it('falls back to the documented window, and knows nothing of a model nobody describes', async () => {
    const keeper = new ContextKeeper({ memory: new InMemoryContextMemory() });
    expect(await keeper.budget(modelAt({ model: 'gpt-4o' }), {}, never)).toMatchObject({
      windowTokens: 128_000,
      source: 'documented',
    });
    const unknown = await keeper.budget(modelAt({ model: 'my-finetune' }), {}, never);
    expect(unknown.windowTokens).toBeUndefined();
    expect(unknown.budgetBytes).toBeUndefined();
  });

  it('gives Ollama num_ctx: the setting (default 16,384), never above the model’s own length', async () => {
    const keeper = new ContextKeeper({ memory: new InMemoryContextMemory() });
    const ollama = (model: string, says: number | undefined) =>
      modelAt({
        provider: 'ollama',
        model,
        says,
        contextLengthSetting: numCtxSetting,
        baseUrl: 'http://127.0.0.1:11434',
      });
    expect(await keeper.budget(ollama('llama3.1', 131072), {}, never)).toMatchObject({
      contextLength: DEFAULT_OLLAMA_NUM_CTX,
      windowTokens: DEFAULT_OLLAMA_NUM_CTX,
      source: 'num_ctx',
    });
    expect(DEFAULT_OLLAMA_NUM_CTX).toBe(16_384);
    expect(await keeper.budget(ollama('small', 8192), { ollamaNumCtx: 32768 }, never)).toMatchObject({
      contextLength: 8192,
    });
    expect(await keeper.budget(ollama('unsaid', undefined), { ollamaNumCtx: 4096 }, never)).toMatchObject({
      contextLength: 4096,
    });
    // contextTokens may lower the window Home Agent fits to; num_ctx still bounds it.
    const capped = ollama('capped', 131072);
    expect(await keeper.budget(capped, { contextTokens: 4000, ollamaNumCtx: 8192 }, never)).toMatchObject({
      windowTokens: 4000,
      contextLength: 8192,
    });
    expect(capped.lookups).toBe(1);
    expect(
      await keeper.budget(ollama('over', 131072), { contextTokens: 50_000, ollamaNumCtx: 8192 }, never),
    ).toMatchObject({
      windowTokens: 8192,
      source: 'num_ctx',
    });
  });

  it('learns the window and the ratio from a refusal, remembers them for the next process, and lets them win', async () => {
    const memory = new InMemoryContextMemory();
    const keeper = new ContextKeeper({ memory });
    const model = modelAt({ says: 32000 });
    const sent = { sentBytes: 28_000, fixedBytes: 3_500 };
    expect(keeper.learnOverflow(model, { limitTokens: 6000, promptTokens: 7000 }, sent)).toEqual({ learned: true });
    expect(await keeper.budget(model, {}, never)).toMatchObject({
      windowTokens: 6000,
      source: 'learned',
      bytesPerToken: 4,
      calibrated: true,
    });
    // The same refusal again teaches nothing new: sending once more cannot help.
    expect(keeper.learnOverflow(model, { limitTokens: 6000, promptTokens: 7000 }, sent)).toEqual({ learned: false });
    // A later process starts from it.
    const next = new ContextKeeper({ memory });
    expect(await next.budget(modelAt({ says: 32000 }), {}, never)).toMatchObject({
      windowTokens: 6000,
      source: 'learned',
    });
    // A refusal without numbers shrinks the window to three quarters of what was sent.
    const vague = modelAt({ model: 'vague' });
    keeper.learnOverflow(vague, {}, { sentBytes: 35_000, fixedBytes: 3_500 });
    expect((await keeper.budget(vague, {}, never)).windowTokens).toBe(7500);
  });

  it('lets contextTokens, set by the person, win over a learned window, larger or smaller', async () => {
    const memory = new InMemoryContextMemory();
    memory.write({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }, { windowTokens: 6000, bytesPerToken: 4 });
    const keeper = new ContextKeeper({ memory });
    const model = modelAt({ says: 32000 });
    expect(await keeper.budget(model, { contextTokens: 8192 }, never)).toMatchObject({
      windowTokens: 8192,
      source: 'setting',
      bytesPerToken: 4,
    });
    expect(await keeper.budget(model, { contextTokens: 5000 }, never)).toMatchObject({
      windowTokens: 5000,
      source: 'setting',
    });
    expect(await keeper.budget(model, {}, never)).toMatchObject({ windowTokens: 6000, source: 'learned' });
  });

  it('keeps no window a refusal states below the floor: the system prompt and tools, or 1,024 tokens', async () => {
    expect(MIN_LEARNED_WINDOW_TOKENS).toBe(1024);
    const memory = new InMemoryContextMemory();
    const keeper = new ContextKeeper({ memory });
    const model = modelAt({ says: 32000 });
    // "maximum context length is 1 tokens": nothing is kept, not even the ratio its count implies.
    const lesson = keeper.learnOverflow(
      model,
      { limitTokens: 1, promptTokens: 7000 },
      { sentBytes: 28_000, fixedBytes: 700 },
    );
    expect(lesson.learned).toBe(false);
    expect(lesson.implausible).toContain('stated a context window of 1 token');
    expect(lesson.implausible).toContain('below 1,024 tokens');
    expect(lesson.implausible).toContain('not believed');
    expect(memory.entries.size).toBe(0);
    expect(await keeper.budget(model, {}, never)).toMatchObject({
      windowTokens: 32000,
      source: 'server',
      bytesPerToken: 3.5,
    });
    // 14,000 bytes of system prompt and tool declarations are 4,000 tokens at 3.5 bytes a token.
    const fixed = { sentBytes: 20_000, fixedBytes: 14_000 };
    const under = keeper.learnOverflow(model, { limitTokens: 3999 }, fixed);
    expect(under.learned).toBe(false);
    expect(under.implausible).toContain('3,999 tokens');
    expect(under.implausible).toContain('the system prompt and tool declarations alone take about 4,000');
    expect(memory.entries.size).toBe(0);
    // At the floor it is believed.
    expect(keeper.learnOverflow(model, { limitTokens: 4000 }, fixed)).toEqual({ learned: true });
    const small = { sentBytes: 20_000, fixedBytes: 700 };
    expect(keeper.learnOverflow(modelAt({ model: 'a' }), { limitTokens: 1023 }, small).learned).toBe(false);
    expect(keeper.learnOverflow(modelAt({ model: 'b' }), { limitTokens: 1024 }, small)).toEqual({ learned: true });
    // A refusal without numbers that would shrink the window under the fixed part teaches nothing:
    // 16,000 bytes are 4,572 tokens, three quarters 3,429, under the 4,000 of the fixed part.
    const vague = modelAt({ model: 'vague', says: 32000 });
    expect(keeper.learnOverflow(vague, {}, { sentBytes: 16_000, fixedBytes: 14_000 }).learned).toBe(false);
    expect((await keeper.budget(vague, {}, never)).windowTokens).toBe(32000);
  });

  it('does not believe a window under 1,024 tokens kept before this rule (a poisoned data folder)', async () => {
    const memory = new InMemoryContextMemory();
    memory.write({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }, { windowTokens: 1 });
    const keeper = new ContextKeeper({ memory });
    expect(await keeper.budget(modelAt({ says: 32000 }), {}, never)).toMatchObject({
      windowTokens: 32000,
      source: 'server',
    });
  });

  it('forgets learned windows by base URL and model, keeping the ratio, also when another process forgot them', async () => {
    const memory = new InMemoryContextMemory();
    const keeper = new ContextKeeper({ memory });
    const model = modelAt({ says: 32000 });
    const other = modelAt({ says: 32000, model: 'other' });
    const sent = { sentBytes: 28_000, fixedBytes: 3_500 };
    keeper.learnOverflow(model, { limitTokens: 6000, promptTokens: 7000 }, sent);
    keeper.learnOverflow(other, { limitTokens: 5000 }, sent);
    expect(keeper.forgetWindows({ model: 'm' })).toEqual([
      { baseUrl: 'http://127.0.0.1:8000/v1', model: 'm', windowTokens: 6000 },
    ]);
    expect(await keeper.budget(model, {}, never)).toMatchObject({
      windowTokens: 32000,
      source: 'server',
      bytesPerToken: 4,
    });
    expect(keeper.forgetWindows({ model: 'm' })).toEqual([]);
    // Another process (`home-agent models forget-window`) forgets in the data folder: the next budget knows.
    expect(await keeper.budget(other, {}, never)).toMatchObject({ windowTokens: 5000, source: 'learned' });
    expect(memory.forgetWindows({ baseUrl: 'http://127.0.0.1:8000/v1/' })).toEqual([
      { baseUrl: 'http://127.0.0.1:8000/v1', model: 'other', windowTokens: 5000 },
    ]);
    expect(await keeper.budget(other, {}, never)).toMatchObject({ windowTokens: 32000, source: 'server' });
  });

  it('calibrates from reported usage: a smaller ratio at once, a larger one halfway, nonsense never', async () => {
    const keeper = new ContextKeeper({ memory: new InMemoryContextMemory() });
    const model = modelAt({ says: 8000 });
    keeper.calibrate(model, { sentBytes: 12_000, inputTokens: 4000 });
    expect((await keeper.budget(model, {}, never)).bytesPerToken).toBe(3);
    keeper.calibrate(model, { sentBytes: 20_000, inputTokens: 4000 });
    expect((await keeper.budget(model, {}, never)).bytesPerToken).toBe(4);
    // A server that left cached tokens out of its count (Ollama has) says 40 bytes a token: ignored.
    keeper.calibrate(model, { sentBytes: 40_000, inputTokens: 1000 });
    expect((await keeper.budget(model, {}, never)).bytesPerToken).toBe(4);
  });

  it('after a silent cut, counts the model’s tokens as longer: back to the default, or under what the cut proves', async () => {
    const memory = new InMemoryContextMemory();
    const keeper = new ContextKeeper({ memory });
    const model = modelAt({ provider: 'ollama', contextLengthSetting: numCtxSetting, says: 131072 });
    keeper.calibrate(model, { sentBytes: 6000, inputTokens: 1000 });
    keeper.learnCut(model, { sentBytes: 40_000, contextLength: 4096 });
    expect((await keeper.budget(model, {}, never)).bytesPerToken).toBe(3.5);
    keeper.learnCut(model, { sentBytes: 12_000, contextLength: 4096 });
    expect((await keeper.budget(model, {}, never)).bytesPerToken).toBeCloseTo((12_000 / 4096) * 0.9);
  });
});
