import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import { canonicalJson } from '../../core/agent/canonical-json.ts';
import type { Settings } from '../contract/settings-table.ts';
import type { ModelChoice } from './model-choice.ts';
import { ModelConfigError, selectModel, type SelectedModel } from './select-model.ts';

/** What the front ends show of the model: the one in use, or why none can be used. */
export type ModelStatus =
  | { ok: true; label: string; scripted: boolean; notice?: string }
  | { ok: false; label: string; scripted: false; notice: string };

/**
 * The model of the next turn, chosen from the model settings as they are when the turn starts: a
 * provider, model, base URL or key-variable change applies to the next turn, without a restart.
 * The adapter is kept while those settings stay the same (a scripted model keeps its place in its
 * script; a local Ollama is probed once). A choice that cannot be used makes `current` throw its
 * message, so that turn ends with it, and shows in `status`.
 */
export class ModelSelection {
  private chosen: { key: string; selected: Promise<SelectedModel> } | undefined;
  private statusValue: ModelStatus | undefined;

  constructor(
    private readonly options: {
      settings: () => Settings;
      scriptFile?: string;
      /** A ready model (tests, embedders): always used, whatever the settings say. */
      fixed?: ModelAdapter;
      storedApiKey?: (provider: string) => string | undefined;
      /** Where notices are read: a window says which Settings field to fill in, a terminal which flag (default). */
      audience?: 'window' | 'terminal';
    },
  ) {}

  /** The choice the settings make now. */
  choice(): ModelChoice {
    const settings = this.options.settings();
    return {
      provider: settings.provider,
      model: settings.model,
      baseUrl: settings.baseUrl,
      apiKeyEnv: settings.apiKeyEnv,
      scriptFile: this.options.scriptFile,
    };
  }

  /** The model for a turn starting now; rejects with a message for the person when it cannot be used. */
  async current(): Promise<ModelAdapter> {
    if (this.options.fixed) {
      this.statusValue = statusOf({ adapter: this.options.fixed }, this.inWindow());
      return this.options.fixed;
    }
    const choice = this.choice();
    const key = canonicalJson(choice);
    if (this.chosen?.key !== key) {
      this.chosen = {
        key,
        selected: selectModel(choice, this.options.storedApiKey ? { storedApiKey: this.options.storedApiKey } : {}),
      };
    }
    const pending = this.chosen;
    try {
      const selected = await pending.selected;
      if (this.chosen === pending) this.statusValue = statusOf(selected, this.inWindow());
      return selected.adapter;
    } catch (error) {
      // A choice that failed is tried again at the next turn (the key variable may be set by then).
      if (this.chosen === pending) {
        this.chosen = undefined;
        this.statusValue = {
          ok: false,
          label: 'No model',
          scripted: false,
          notice: `The model settings cannot be used: ${this.inWindow() && error instanceof ModelConfigError ? error.inWindow : (error as Error).message}`,
        };
      }
      throw error;
    }
  }

  private inWindow(): boolean {
    return this.options.audience === 'window';
  }

  /** The model last chosen (or why it could not be); undefined before the first choice. */
  get status(): ModelStatus | undefined {
    return this.statusValue;
  }
}

function statusOf(selected: SelectedModel, inWindow: boolean): ModelStatus {
  const notice = inWindow ? (selected.noticeInWindow ?? selected.notice) : selected.notice;
  return {
    ok: true,
    label: selected.adapter.label,
    scripted: selected.adapter.scripted === true,
    ...(notice ? { notice } : {}),
  };
}
