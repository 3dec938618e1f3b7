import type { ContextBudget, ContextSource } from './context-keeper.ts';
import { forgetWindowCommand } from './forget-window-command.ts';
import { tokensOf } from './request-bytes.ts';

const SOURCES: Readonly<Record<ContextSource, string>> = {
  setting: 'the setting contextTokens',
  learned: 'as its server stated in an earlier refusal',
  server: 'as its server says',
  num_ctx: "Ollama's num_ctx, the setting ollamaNumCtx",
  documented: 'as its maker documents',
};

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
      : budget.source === 'num_ctx'
        ? ', or raise ollamaNumCtx if the model and the machine allow it'
        : '';
  const forget = budget.learnedFor
    ? ` If the server stated it wrongly, forget it: ${forgetWindowCommand(budget.learnedFor)} ` +
      `(or Forget learned windows in the Settings tab).`
    : '';
  return (
    `This turn does not fit the model's context window: it needs about ${formatTokens(need)} tokens — ` +
    `${formatTokens(prompt)} for the system prompt, ${formatTokens(tools)} for the tool declarations, ` +
    `${formatTokens(turn)} for this turn's messages, ${formatTokens(budget.replyTokens)} kept for the reply — ` +
    `but ${options.label} has ${formatTokens(budget.windowTokens)} (${SOURCES[budget.source]}). Nothing was sent. ` +
    `Disable plugins you do not need (Plugins tab), ask in a shorter message, or choose a model with a larger window${raise}.${forget}`
  );
}
