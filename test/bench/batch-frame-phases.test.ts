import { describe, expect, it } from 'vitest';
import { splitBatchFrames } from './batch-frame-phases.ts';

describe('splitBatchFrames', () => {
  // Frames at 0, 16, 32, 80 (a long one), 96, 112, 150, 166; hand-computed intervals:
  // 16, 16, 48, 16, 16, 38, 16.
  const stamps = [0, 16, 32, 80, 96, 112, 150, 166];

  it('takes the frame after the first batch event as the one that drew the panel, and the frame after batch/end as the end', () => {
    // First event at 20 → applied in the frame stamped 32 (interval 32→80 = 48).
    // batch/end at 120 → applied in the frame stamped 150 (interval 150→166 = 16).
    // Streaming: intervals from 80 up to 150: 80→96, 96→112, 112→150 = 16, 16, 38.
    expect(splitBatchFrames(stamps, { firstBatchEventAt: 20, batchEndAt: 120 })).toEqual({
      firstFrameMs: 48,
      streaming: [16, 16, 38],
      endFrameMs: 16,
    });
  });

  it('has no streaming frames when the batch ends in the frame after the one that drew it', () => {
    // First at 20 → frame 32; end at 40 → frame 80: nothing between.
    expect(splitBatchFrames(stamps, { firstBatchEventAt: 20, batchEndAt: 40 })).toEqual({
      firstFrameMs: 48,
      streaming: [],
      endFrameMs: 16,
    });
  });

  it('is undefined when the recording stops before the frame after batch/end has a successor', () => {
    expect(splitBatchFrames(stamps, { firstBatchEventAt: 20, batchEndAt: 155 })).toBeUndefined();
    expect(splitBatchFrames(stamps, { firstBatchEventAt: 200, batchEndAt: 300 })).toBeUndefined();
  });

  it('is undefined when both events are taken in the same frame', () => {
    expect(splitBatchFrames(stamps, { firstBatchEventAt: 17, batchEndAt: 20 })).toBeUndefined();
  });
});
