import type { ContextBudget, ContextSource } from './context-keeper.ts';
import { forgetWindowCommand } from './forget-window-command.ts';
import { tokensOf } from './request-bytes.ts';

/** Where the window came from, in words; a per-request length names its setting (e.g. "X's num_ctx, the setting K"). */
function sourceInWords(budget: ContextBudget & { source: ContextSource }): string {
  const perRequest = budget.contextLengthSetting;
  switch (budget.source) {
    case 'setting':
      return 'the setting contextTokens';
    case 'learned':
      return 'as its server stated in an earlier refusal';
    case 'server':
      return 'as its server says';
    case 'num_ctx':
      return perRequest ? `${perRequest.name}, the setting ${perRequest.key}` : 'the context length of each request';
    case 'documented':
      return 'as its maker documents';
  }
}

/** Thousands with commas, the way the window shows numbers. */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}

/**
 * The error of a turn whose own part cannot fit the window (system prompt, tool declarations and
 * this turn's messages): how many tokens it needs, how many the model has, and what to do.
 */
export function contextTooSmallMessage(options: {
  label: string;
  budget: ContextBudget & { windowTokens: number; source: ContextSource };
  systemBytes: number;
  toolsBytes: number;
  currentTurnBytes: number;
}): string {
  const { budget } = options;
  const ratio = budget.bytesPerToken;
  const prompt = tokensOf(options.systemBytes, ratio);
  const tools = tokensOf(options.toolsBytes, ratio);
  const turn = tokensOf(options.currentTurnBytes, ratio);
  const need = prompt + tools + turn + budget.replyTokens;
  const raise =
    budget.source === 'setting'
      ? ', or raise contextTokens if the model has more'
      : budget.source === 'num_ctx' && budget.contextLengthSetting
        ? `, or raise ${budget.contextLengthSetting.key} if the model and the machine allow it`
        : '';
  const forget = budget.learnedFor
    ? ` If the server stated it wrongly, forget it: ${forgetWindowCommand(budget.learnedFor)} ` +
      `(or Forget learned windows in the Settings tab).`
    : '';
  return (
    `This turn does not fit the model's context window: it needs about ${formatTokens(need)} tokens — ` +
    `${formatTokens(prompt)} for the system prompt, ${formatTokens(tools)} for the tool declarations, ` +
    `${formatTokens(turn)} for this turn's messages, ${formatTokens(budget.replyTokens)} kept for the reply — ` +
    `but ${options.label} has ${formatTokens(budget.windowTokens)} (${sourceInWords(budget)}). Nothing was sent. ` +
    `Disable plugins you do not need (Plugins tab), ask in a shorter message, or choose a model with a larger window${raise}.${forget}`
  );
}
