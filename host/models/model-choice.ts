import { z } from 'zod';

export const PROVIDERS = ['demo', 'scripted', 'openai', 'anthropic', 'gemini', 'ollama'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Which model a run uses, from flags over settings over defaults. The API key itself is never here: only the env var that holds it. */
export const modelChoiceSchema = z.object({
  provider: z.enum(PROVIDERS).optional(),
  model: z.string().min(1).optional(),
  baseUrl: z.string().url().optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
    .optional(),
  scriptFile: z.string().min(1).optional(),
});
export type ModelChoice = z.infer<typeof modelChoiceSchema>;
