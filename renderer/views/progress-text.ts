import type { CallRecord } from '../../host/contract/api-contract.ts';

/** A running call's progress as its row says it: "message — progress/total" (each part when known). */
export function progressText(progress: NonNullable<CallRecord['progress']>): string {
  const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return progress.message ? `${progress.message} — ${amount}` : amount;
}
