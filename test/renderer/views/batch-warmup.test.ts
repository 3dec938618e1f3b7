// @vitest-environment happy-dom
import { takeRenders } from '../helpers/react-render-counter.ts';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../renderer/api/api-client.ts';
import type { CallRecord } from '../../../host/contract/api-contract.ts';
import { warmUpBatchDrawing } from '../../../renderer/views/batch-warmup.tsx';
import { BATCH_WARMUP_MEASURE } from '../../../renderer/views/batch-warmup-measure.ts';

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = false;

/** An API that records every method asked for: the warm-up must ask for none. */
function recordingApi(asked: string[]): ApiClient {
  return new Proxy({} as ApiClient, {
    get: (_target, name) => {
      asked.push(String(name));
      return () => Promise.reject(new Error('the warm-up reached the host'));
    },
  });
}

describe('the batch warm-up', () => {
  it('draws every row of a 16-call batch running and then done, and leaves nothing behind', () => {
    const asked: string[] = [];
    const page = document.body.innerHTML;
    takeRenders();
    warmUpBatchDrawing(recordingApi(asked), 1_000_000);
    const rows = takeRenders()
      .filter((render) => render.name === 'ToolRowBody')
      .map((render) => render.props.row as CallRecord);
    const statuses = (status: string): number =>
      new Set(rows.filter((row) => row.status === status).map((row) => row.callId)).size;
    expect(statuses('running')).toBe(16);
    expect(statuses('done')).toBe(16);
    expect(asked).toEqual([]);
    expect(document.body.innerHTML).toBe(page);
  });

  it('leaves one User Timing measure per warm-up', () => {
    const before = performance.getEntriesByName(BATCH_WARMUP_MEASURE).length;
    warmUpBatchDrawing(recordingApi([]), 2_000_000);
    expect(performance.getEntriesByName(BATCH_WARMUP_MEASURE)).toHaveLength(before + 1);
  });
});
