/**
 * The User Timing measure each batch warm-up leaves (`batch-warmup.tsx`): DevTools' performance panel
 * shows it, the UI bench waits for it and reports its duration, the e2e spec finds it.
 */
export const BATCH_WARMUP_MEASURE = 'home-agent batch warm-up';
