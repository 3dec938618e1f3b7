/**
 * The context windows the hosted providers document for their models, in tokens, by model-name
 * prefix (the longest prefix that matches wins; a dated or `-latest` suffix still matches). Used
 * when no server says the window; a 400 that states another one is learned over it.
 * Sources: OpenAI's, Anthropic's and Google's model pages.
 */
const DOCUMENTED: Readonly<Record<string, number>> = {
  // OpenAI
  'gpt-5': 400_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  'chatgpt-4o': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 16_385,
  o1: 200_000,
  'o1-mini': 128_000,
  'o1-preview': 128_000,
  o3: 200_000,
  'o4-mini': 200_000,
  // Anthropic
  'claude-': 200_000,
  'claude-2': 100_000,
  'claude-instant': 100_000,
  // Google
  'gemini-1.5-pro': 2_097_152,
  'gemini-1.5-flash': 1_048_576,
  'gemini-2.': 1_048_576,
  'gemini-3': 1_048_576,
};

/**
 * The documented window of a hosted model, or undefined for a name the table does not know. A
 * routing prefix (`openai/gpt-4o` on OpenRouter) and Gemini's `models/` are ignored.
 */
export function documentedContextWindow(model: string): number | undefined {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  let best: string | undefined;
  for (const prefix of Object.keys(DOCUMENTED))
    if (name.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  return best === undefined ? undefined : DOCUMENTED[best];
}
