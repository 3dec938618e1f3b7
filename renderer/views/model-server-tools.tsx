import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * Beside the model fields: the models the server offers (a picker that fills in Model, and the
 * suggestions the Model field shows as you type) and Test connection, both trying the fields as
 * the form shows them, before they are saved; and Forget learned windows (context windows learned
 * from servers' refusals). Results are announced.
 */
export function ModelServerTools() {
  const choices = useAppStore((state) => state.modelChoices);
  const test = useAppStore((state) => state.connectionTest);
  const draftModel = useAppStore((state) => state.settingDrafts.model);
  const storedModel = useAppStore((state) => (typeof state.settings.model === 'string' ? state.settings.model : ''));
  const loadModelChoices = useAppStore((state) => state.loadModelChoices);
  const testConnection = useAppStore((state) => state.testConnection);
  const editSetting = useAppStore((state) => state.editSetting);
  const forgetting = useAppStore((state) => state.windowsForgetting);
  const forgetLearnedWindows = useAppStore((state) => state.forgetLearnedWindows);
  const model = draftModel ?? storedModel;
  const loading = choices.status === 'loading';
  const testing = test?.phase === 'testing';

  return (
    <div className="model-server-tools" data-testid="model-server-tools">
      <div className="settings-actions">
        <AriaDisabledButton
          className="button button-small"
          data-testid="load-models"
          unavailable={loading}
          onPress={() => void loadModelChoices()}
        >
          {loading ? 'Asking the server…' : 'Show the server’s models'}
        </AriaDisabledButton>
        <AriaDisabledButton
          className="button button-small"
          data-testid="test-connection"
          unavailable={testing}
          onPress={() => void testConnection()}
        >
          {testing ? 'Testing…' : 'Test connection'}
        </AriaDisabledButton>
        <AriaDisabledButton
          className="button button-small"
          data-testid="forget-learned-windows"
          unavailable={forgetting?.phase === 'forgetting'}
          onPress={() => void forgetLearnedWindows()}
        >
          {forgetting?.phase === 'forgetting' ? 'Forgetting…' : 'Forget learned windows'}
        </AriaDisabledButton>
      </div>
      {choices.status === 'loaded' && (
        <div className="setting-field">
          <label className="setting-label" htmlFor="model-picker">
            Models the server offers ({choices.models.length})
          </label>
          <select
            id="model-picker"
            className="setting-input"
            data-testid="model-picker"
            value={choices.models.some((entry) => entry.id === model) ? model : ''}
            onChange={(event) => {
              if (event.currentTarget.value) editSetting('model', event.currentTarget.value);
            }}
          >
            <option value="">Choose a model…</option>
            {choices.models.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name ? `${entry.name} (${entry.id})` : entry.id}
              </option>
            ))}
          </select>
          <datalist id="model-choices">
            {choices.models.map((entry) => (
              <option key={entry.id} value={entry.id} />
            ))}
          </datalist>
        </div>
      )}
      <p
        className={choices.status === 'failed' ? 'setting-error' : 'setting-hint'}
        role="status"
        data-testid="model-choices-status"
      >
        {choices.status === 'failed' ? choices.message : ''}
      </p>
      <p
        className={
          test?.phase === 'done'
            ? test.ok
              ? 'connection-test connection-test-ok'
              : 'connection-test connection-test-failed'
            : 'connection-test'
        }
        role="status"
        data-testid="connection-test"
        data-ok={test?.phase === 'done' ? String(test.ok) : undefined}
      >
        {test?.phase === 'done' ? test.message : ''}
      </p>
      <p
        className={forgetting?.phase === 'done' && !forgetting.ok ? 'setting-error' : 'setting-hint'}
        role="status"
        data-testid="forget-learned-windows-status"
      >
        {forgetting?.phase === 'done' ? forgetting.message : ''}
      </p>
    </div>
  );
}
