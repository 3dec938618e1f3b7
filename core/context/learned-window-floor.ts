import { formatTokens } from './context-too-small.ts';

/** No window a refusal states below this many tokens is believed, whatever the request held. */
export const MIN_LEARNED_WINDOW_TOKENS = 1_024;

/**
 * The smallest window a refusal may state and be kept: the request's fixed part (system prompt and
 * tool declarations, in tokens), or MIN_LEARNED_WINDOW_TOKENS, whichever is larger.
 */
export function learnedWindowFloor(fixedTokens: number): number {
  return Math.max(fixedTokens, MIN_LEARNED_WINDOW_TOKENS);
}

/**
 * The turn's error when a refusal states a window below the floor: what it stated, why that is not
 * believed, and what to do if the server really keeps so little.
 */
export function implausibleWindowMessage(options: {
  label: string;
  statedTokens: number;
  fixedTokens: number;
}): string {
  const { statedTokens, fixedTokens } = options;
  const floor = learnedWindowFloor(fixedTokens);
  const why =
    fixedTokens >= MIN_LEARNED_WINDOW_TOKENS
      ? `the system prompt and tool declarations alone take about ${formatTokens(fixedTokens)}`
      : `below ${formatTokens(MIN_LEARNED_WINDOW_TOKENS)} tokens, which no model Home Agent can use keeps`;
  return (
    `${options.label}'s server refused the request for its length and stated a context window of ` +
    `${formatTokens(statedTokens)} token${statedTokens === 1 ? '' : 's'}: ${why}, so that window was not believed ` +
    `and nothing was learned from the refusal (a window under ${formatTokens(floor)} tokens is never kept). ` +
    `If the model really keeps so little, choose a model with a larger window, or disable plugins you do not ` +
    `need (Plugins tab).`
  );
}
