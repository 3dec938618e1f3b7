import { z } from 'zod';
import { assertToolOrderShape, ToolOrderError } from '../../core/tools/order-tools.ts';
import { PROVIDERS } from '../models/model-choice.ts';

/** A `toolOrder` policy: names, exactly one rest entry, no duplicates (the kernel's own shape check). */
const toolOrderSchema = z.array(z.string().min(1)).superRefine((toolOrder, context) => {
  try {
    assertToolOrderShape(toolOrder);
  } catch (error) {
    if (!(error instanceof ToolOrderError)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
  }
});

/**
 * Every persisted setting and its validation, in ONE table: a key not listed here cannot be stored,
 * and a stored value is checked against its schema when written and when read back.
 * The API key itself is never a setting: only the name of the environment variable that holds it.
 */
export const settingsKeys = {
  provider: z.enum(PROVIDERS),
  model: z.string().min(1).max(200),
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'),
  persona: z.string().max(20_000),
  toolOrder: toolOrderSchema,
  maxSteps: z.number().int().min(1).max(100),
  toolTimeoutMs: z.number().int().min(1).max(3_600_000),
  /** At most this many calls of a parallel batch run at once; absent means no cap. */
  concurrencyCap: z.number().int().min(1).max(256),
} as const;

export type SettingKey = keyof typeof settingsKeys;

/** The settings that are set; an unset key is absent (never `undefined`-valued, never `[]`). */
export type Settings = { [K in SettingKey]?: z.output<(typeof settingsKeys)[K]> };

export const SETTING_KEYS = Object.keys(settingsKeys) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settingsKeys, key);
}
