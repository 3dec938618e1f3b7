import { describe, expect, it } from 'vitest';
import { call, runWith, tool } from './batch-helpers.ts';

/** The reason batch/start records for three parallel-safe calls under a cap. */
async function reasonWith(concurrencyCap: number | undefined): Promise<unknown> {
  const tools = ['a', 'b', 'c'].map((name) => tool(name, { parallelSafe: true }));
  const { events } = await runWith({
    tools,
    calls: [call(0, 'a'), call(1, 'b'), call(2, 'c')],
    ...(concurrencyCap !== undefined ? { extra: { concurrencyCap } } : {}),
  });
  return events.find((event) => event.type === 'batch/start');
}

describe('the reason a batch records', () => {
  it('says a cap of 1 ran parallel-safe calls one after another', async () => {
    expect(await reasonWith(1)).toMatchObject({
      mode: 'parallel',
      reason: 'parallel: all 3 calls are parallel-safe, but the cap of 1 parallel call ran them one after another',
    });
  });

  it('says how many a smaller cap let run at once', async () => {
    expect(await reasonWith(2)).toMatchObject({
      reason: 'parallel: all 3 calls are parallel-safe; the cap let at most 2 run at once',
    });
  });

  it('does not mention a cap that changed nothing', async () => {
    expect(await reasonWith(3)).toMatchObject({ reason: 'parallel: all 3 calls are parallel-safe' });
    expect(await reasonWith(undefined)).toMatchObject({ reason: 'parallel: all 3 calls are parallel-safe' });
  });
});
