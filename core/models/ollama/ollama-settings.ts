import { z } from 'zod';
import type { ContextLengthSetting } from '../model-adapter.ts';
import { providerSetting } from '../provider-setting.ts';

/** `num_ctx` while the setting is empty: Ollama's own default is 4,096, and its memory use grows with it. */
const NUM_CTX_DEFAULT = 16_384;
const NUM_CTX_RANGE = { min: 1024, max: 2_097_152 };
const RANGE_MESSAGE = `Ollama's context length (num_ctx) is a whole number from ${NUM_CTX_RANGE.min} to ${NUM_CTX_RANGE.max}`;

/**
 * Ollama's own settings rows, in the settings table's shape (host/contract/settings-table.ts spreads
 * them in through the list of providers): the context length every request asks for.
 */
export const ollamaSettings = {
  ollamaNumCtx: providerSetting({
    schema: z
      .number({ error: RANGE_MESSAGE })
      .int({ error: RANGE_MESSAGE })
      .min(NUM_CTX_RANGE.min, RANGE_MESSAGE)
      .max(NUM_CTX_RANGE.max, RANGE_MESSAGE),
    label: 'Ollama context length (num_ctx)',
    input: 'integer',
    help: `The context length every Ollama request asks for, never above the model's own; its memory use grows with it. Empty: ${NUM_CTX_DEFAULT.toLocaleString('en-US')}.`,
    flag: 'ollama-num-ctx',
    env: 'HOME_AGENT_OLLAMA_NUM_CTX',
    appliesAt: 'turn',
    default: NUM_CTX_DEFAULT,
  }),
};

/** The setting every request's `num_ctx` comes from, as the context budget and its messages read it. */
export const numCtxSetting: ContextLengthSetting = {
  key: 'ollamaNumCtx',
  flag: ollamaSettings.ollamaNumCtx.flag,
  default: NUM_CTX_DEFAULT,
  name: "Ollama's num_ctx",
};
