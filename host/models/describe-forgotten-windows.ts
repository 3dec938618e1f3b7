import type { ForgottenWindow, WindowFilter } from '../../core/context/context-memory.ts';
import { formatTokens } from '../../core/context/context-too-small.ts';

/**
 * What forgetting learned windows did, in one sentence for the person (the CLI's stderr, the
 * Settings tab): how many were forgotten and what happens next, or that none matched `filter`.
 */
export function describeForgottenWindows(forgotten: readonly ForgottenWindow[], filter: WindowFilter): string {
  if (forgotten.length === 0) {
    const named = [
      ...(filter.baseUrl !== undefined ? [`base URL ${filter.baseUrl}`] : []),
      ...(filter.model !== undefined ? [`model ${filter.model}`] : []),
    ];
    return named.length > 0
      ? `No learned window matched (${named.join(', ')}); nothing was forgotten.`
      : 'No learned window to forget.';
  }
  const which =
    forgotten.length === 1
      ? `the learned window of ${forgotten[0]!.model} (${formatTokens(forgotten[0]!.windowTokens)} tokens)`
      : `${forgotten.length} learned windows`;
  return `Forgot ${which}; the next turn finds each model's window again (the server, its documentation, or a refusal).`;
}
