/**
 * A turn's frames split at its batch: the frame that first takes a batch event (it draws the panel
 * and its first rows), the frames while the rest of the batch streams into that panel, and the frame
 * that takes `batch/end` (the panel's ended state). Stamps are the page's requestAnimationFrame times;
 * an event taken at `t` is applied in the first frame stamped after `t`, and that frame's cost is
 * the interval from its stamp to the next.
 */
export interface BatchFramePhases {
  /** The interval of the frame that took the batch's first event. */
  firstFrameMs: number;
  /** The intervals after it, up to the stamp of the frame that takes `batch/end`. */
  streaming: number[];
  /** The interval of the frame that took `batch/end`. */
  endFrameMs: number;
}

/**
 * Pure: the phases of `stamps` (ascending ms) given when the page took the batch's first event and
 * its `batch/end` (same clock). Undefined when the stamps do not reach a frame after each.
 */
export function splitBatchFrames(
  stamps: readonly number[],
  marks: { firstBatchEventAt: number; batchEndAt: number },
): BatchFramePhases | undefined {
  const first = stamps.findIndex((stamp) => stamp > marks.firstBatchEventAt);
  const end = stamps.findIndex((stamp) => stamp > marks.batchEndAt);
  if (first < 0 || end < 0 || end + 1 >= stamps.length || first + 1 > end) return undefined;
  const interval = (index: number): number => stamps[index + 1]! - stamps[index]!;
  const streaming: number[] = [];
  for (let index = first + 1; index < end; index += 1) streaming.push(interval(index));
  return { firstFrameMs: interval(first), streaming, endFrameMs: interval(end) };
}
