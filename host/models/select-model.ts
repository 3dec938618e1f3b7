import { readFile } from 'node:fs/promises';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import { DemoModel } from '../../core/models/demo/demo-model.ts';
import { ScriptedModel, scriptSchema } from '../../core/models/scripted/scripted-model.ts';
import type { ModelChoice } from './model-choice.ts';

/** The model a run uses, with a notice saying how it was chosen (shown by every front end). */
export interface SelectedModel {
  adapter: ModelAdapter;
  notice?: string;
}

/** A configuration problem a person must fix; the message names what and how. */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
}

/**
 * Builds the model adapter for a choice. With no provider configured, the demo model is used and
 * the notice says so.
 */
export async function selectModel(choice: ModelChoice): Promise<SelectedModel> {
  const provider = choice.provider;
  if (provider === undefined || provider === 'demo') {
    return { adapter: new DemoModel(), ...(provider === undefined ? { notice: 'No model is configured: using the demo model (no AI). See README "Models" to connect one.' } : {}) };
  }
  if (provider === 'scripted') {
    if (!choice.scriptFile) throw new ModelConfigError('--provider scripted needs --script FILE (a JSON file {"replies":[…]})');
    return { adapter: new ScriptedModel(await readScript(choice.scriptFile)) };
  }
  return { adapter: await selectRemoteModel({ ...choice, provider }) };
}

async function readScript(file: string) {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ModelConfigError(`cannot read the script ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelConfigError(`the script ${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = scriptSchema.safeParse(json);
  if (!parsed.success) {
    throw new ModelConfigError(`the script ${file} is not a script: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  return parsed.data;
}

async function selectRemoteModel(choice: ModelChoice & { provider: 'openai' | 'anthropic' | 'gemini' | 'ollama' }): Promise<ModelAdapter> {
  throw new ModelConfigError(`the ${choice.provider} provider is not wired yet`);
}
