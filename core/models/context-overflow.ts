/** What a server's "the prompt is longer than the window" error said, with the numbers it gave. */
export interface ContextOverflow {
  /** The model's window (N tokens), when the error states it. */
  limitTokens?: number;
  /** The prompt's tokens (M), when the error states them (the messages' part, where it splits them from the completion). */
  promptTokens?: number;
}

const NUMBER = '(\\d[\\d,]*)';

/** Each provider's wording, with where its numbers are. */
const WORDINGS: { pattern: RegExp; limit?: number; prompt?: number }[] = [
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  { pattern: new RegExp(`prompt is too long: ${NUMBER} tokens > ${NUMBER} maximum`, 'i'), prompt: 1, limit: 2 },
  // Gemini: "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)."
  {
    pattern: new RegExp(
      `input token count \\(?${NUMBER}\\)? exceeds the maximum number of tokens allowed \\(?${NUMBER}\\)?`,
      'i',
    ),
    prompt: 1,
    limit: 2,
  },
  // llama.cpp: "the request exceeds the available context size…" with its fields (errorBodyMessage adds them).
  { pattern: new RegExp(`n_prompt_tokens ${NUMBER}, n_ctx ${NUMBER}`, 'i'), prompt: 1, limit: 2 },
];

// OpenAI and vLLM: "This model's maximum context length is N tokens. However, your messages resulted
// in M tokens" / "you requested T tokens (M in the messages, C in the completion)" / "your request has
// M input tokens".
const STATED_LIMIT = new RegExp(`maximum context length is ${NUMBER} tokens`, 'i');
const STATED_PROMPT = [
  new RegExp(`${NUMBER} in the messages`, 'i'),
  new RegExp(`resulted in ${NUMBER} tokens`, 'i'),
  new RegExp(`request has ${NUMBER} input tokens`, 'i'),
  new RegExp(`requested ${NUMBER} tokens`, 'i'),
];
// LM Studio: "…the model is loaded with context length of only N tokens, which is not enough."
const LOADED_LIMIT = new RegExp(`context length of only ${NUMBER} tokens`, 'i');

/** Wordings that say the window was exceeded without numbers (then nothing exact can be learned). */
const WITHOUT_NUMBERS =
  /context_length_exceeded|exceeds? the (?:available |model'?s? )?(?:maximum )?context|context (?:window|length) (?:is )?exceeded|exceeds the context window|too many tokens|prompt is too long|input is too long/i;

/**
 * The overflow an HTTP error's text states, in each provider's wording, with its numbers parsed;
 * undefined when the text does not say the prompt was longer than the window.
 */
export function parseContextOverflow(message: string): ContextOverflow | undefined {
  for (const wording of WORDINGS) {
    const found = wording.pattern.exec(message);
    if (!found) continue;
    return overflow(found[wording.limit ?? 0], found[wording.prompt ?? 0]);
  }
  const limit = STATED_LIMIT.exec(message) ?? LOADED_LIMIT.exec(message);
  if (limit) {
    const prompt = STATED_PROMPT.map((pattern) => pattern.exec(message)).find((found) => found !== null);
    return overflow(limit[1], prompt?.[1]);
  }
  return WITHOUT_NUMBERS.test(message) ? {} : undefined;
}

function overflow(limit: string | undefined, prompt: string | undefined): ContextOverflow {
  const result: ContextOverflow = {};
  const limitTokens = tokens(limit);
  const promptTokens = tokens(prompt);
  if (limitTokens !== undefined) result.limitTokens = limitTokens;
  if (promptTokens !== undefined) result.promptTokens = promptTokens;
  return result;
}

function tokens(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/,/g, ''));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
