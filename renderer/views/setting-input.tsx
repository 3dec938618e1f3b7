import { fieldTexts, formatSettingValue, type SettingField } from '../state/setting-fields.ts';
import { useAppStore } from './use-app-store.ts';

/**
 * One field of the settings form: its input (showing the draft, else the stored value), its hint,
 * and, right under it, that it was not saved and the host's reason.
 */
export function SettingInput(props: { field: SettingField }) {
  const { field } = props;
  const stored = useAppStore((state) => formatSettingValue(field.kind, state.settings[field.key]));
  const draft = useAppStore((state) => state.settingDrafts[field.key]);
  const error = useAppStore((state) => state.settingErrors[field.key]);
  const fixed = useAppStore((state) => state.fixedSettings.includes(field.key));
  const editSetting = useAppStore((state) => state.editSetting);
  // The setting this field's example depends on (the provider), as the form shows it now.
  const other = useAppStore((state) => {
    const key = field.dependsOn?.setting;
    if (key === undefined) return '';
    return state.settingDrafts[key] ?? formatSettingValue('text', state.settings[key]);
  });
  const texts = fieldTexts(field, other);
  const value = draft ?? stored;
  const inputId = `setting-${field.key}`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const common = {
    id: inputId,
    className: error !== undefined ? 'setting-input setting-input-invalid' : 'setting-input',
    'data-testid': 'setting-input',
    'data-setting': field.key,
    'aria-invalid': error !== undefined,
    'aria-describedby':
      [texts.hint || field.restartRequired || fixed ? hintId : undefined, error !== undefined ? errorId : undefined]
        .filter(Boolean)
        .join(' ') || undefined,
    value,
  };
  const hint = [
    texts.hint,
    field.restartRequired ? 'Applies the next time Home Agent starts.' : undefined,
    fixed
      ? `This run was started with ${field.flag} (or its environment variable), which wins: a saved value is used when Home Agent starts without it.`
      : undefined,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div
      className={draft !== undefined ? 'setting-field setting-field-dirty' : 'setting-field'}
      data-testid="setting-field"
      data-setting={field.key}
    >
      <label className="setting-label" htmlFor={inputId}>
        {field.label}
      </label>
      {field.kind === 'select' ? (
        <select {...common} onChange={(event) => editSetting(field.key, event.currentTarget.value)}>
          <option value="">Default</option>
          {(field.options ?? []).map((provider) => (
            <option key={provider} value={provider}>
              {provider}
            </option>
          ))}
          {value !== '' && !(field.options ?? []).includes(value) && <option value={value}>{value}</option>}
        </select>
      ) : field.kind === 'textarea' || field.kind === 'lines' ? (
        <textarea
          {...common}
          rows={field.kind === 'lines' ? 5 : 4}
          spellCheck={field.kind !== 'lines'}
          placeholder={texts.placeholder}
          onChange={(event) => editSetting(field.key, event.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          type="text"
          inputMode={field.kind === 'integer' ? 'numeric' : undefined}
          spellCheck={false}
          autoComplete="off"
          list={field.key === 'model' ? 'model-choices' : undefined}
          placeholder={texts.placeholder ?? (field.kind === 'integer' ? 'Default' : undefined)}
          onChange={(event) => editSetting(field.key, event.currentTarget.value)}
        />
      )}
      {hint && (
        <p className="setting-hint" id={hintId} data-testid="setting-hint" data-setting={field.key}>
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p className="setting-error" id={errorId} role="alert" data-testid="setting-error" data-setting={field.key}>
          Not saved. {error}
        </p>
      )}
    </div>
  );
}
