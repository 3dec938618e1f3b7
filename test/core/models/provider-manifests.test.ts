import { describe, expect, it } from 'vitest';
import { documentedContextWindow } from '../../../core/models/documented-context-window.ts';
import { numCtxSetting } from '../../../core/models/ollama/ollama-settings.ts';
import { PROVIDERS } from '../../../core/models/provider-defaults.ts';
import {
  LOCAL_MODEL_MANIFESTS,
  PROVIDER_MANIFESTS,
  PROVIDER_SETTINGS,
  WITHOUT_A_CHOICE,
} from '../../../core/models/provider-manifests.ts';

describe('the one list of model providers', () => {
  it('lists each wire format under the id its manifest gives, after the models that need no server', () => {
    for (const [id, manifest] of Object.entries(PROVIDER_MANIFESTS)) expect(manifest.id).toBe(id);
    expect(PROVIDERS).toEqual(['demo', 'scripted', 'openai', 'anthropic', 'gemini', 'ollama']);
  });

  it('chooses, without a provider, a listed server to probe and a listed model to fall back to', () => {
    expect(PROVIDER_MANIFESTS[WITHOUT_A_CHOICE.probed.id]).toBe(WITHOUT_A_CHOICE.probed.manifest);
    expect(LOCAL_MODEL_MANIFESTS[WITHOUT_A_CHOICE.fallback.id]).toBe(WITHOUT_A_CHOICE.fallback.manifest);
    expect(WITHOUT_A_CHOICE.probed.manifest.probe.skipVariable).toBe('HOME_AGENT_NO_OLLAMA_PROBE');
  });

  it('gives each provider setting its default in its row, the one the context budget reads', () => {
    const row = PROVIDER_SETTINGS[numCtxSetting.key as keyof typeof PROVIDER_SETTINGS];
    expect(row.default).toBe(numCtxSetting.default);
    expect(row.flag).toBe(numCtxSetting.flag);
    expect(row.help).toContain('16,384');
  });

  it('merges every provider’s documented windows, whichever server a model is reached through', () => {
    expect(documentedContextWindow('openai/gpt-4o-mini')).toBe(128_000);
    expect(documentedContextWindow('anthropic/claude-sonnet-4-5')).toBe(200_000);
    expect(documentedContextWindow('models/gemini-1.5-pro-002')).toBe(2_097_152);
  });

  it('names the servers that speak OpenAI’s format too in its hints', () => {
    expect(PROVIDER_MANIFESTS.openai.serverHint).toBe(
      'is the server running (OpenAI-compatible: Ollama, LM Studio, llama.cpp, vLLM)? Check the base URL.',
    );
    expect(PROVIDER_MANIFESTS.openai.toolSupportAdvice).toBe(PROVIDER_MANIFESTS.ollama.toolSupportAdvice);
  });
});
