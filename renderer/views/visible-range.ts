/** Which items of a list of heights meet a band of the scrolled content, and the space around them. */
export interface VisibleRange {
  /** The first item drawn, and one past the last. */
  start: number;
  end: number;
  /** The height of the items above `start`, and below `end` (drawn as empty space). */
  before: number;
  after: number;
}

/**
 * Pure: the items of `sizes` (heights in px, top to bottom) that overlap the band `top`…`bottom`
 * of the content; at least one item when there are any.
 */
export function visibleRange(options: { sizes: readonly number[]; top: number; bottom: number }): VisibleRange {
  const { sizes } = options;
  let offset = 0;
  let start = 0;
  while (start < sizes.length - 1 && offset + (sizes[start] as number) <= options.top)
    offset += sizes[start++] as number;
  const before = offset;
  let end = start;
  while (end < sizes.length && offset < options.bottom) offset += sizes[end++] as number;
  if (end === start && start < sizes.length) end += 1;
  let after = 0;
  for (let position = end; position < sizes.length; position += 1) after += sizes[position] as number;
  return { start, end, before, after };
}

/** Pure: where item `index` begins (the heights of the items above it). */
export function offsetOf(sizes: readonly number[], index: number): number {
  let offset = 0;
  for (let position = 0; position < index && position < sizes.length; position += 1)
    offset += sizes[position] as number;
  return offset;
}

/** Pure: the item at `top` of the content (the last one when `top` is past the end), and where it begins. */
export function itemAt(sizes: readonly number[], top: number): { index: number; offset: number } {
  let offset = 0;
  let index = 0;
  while (index < sizes.length - 1 && offset + (sizes[index] as number) <= top) offset += sizes[index++] as number;
  return { index, offset };
}
