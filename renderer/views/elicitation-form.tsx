import { useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  choicesOf,
  type ElicitationField,
  type ElicitationRequestNotice,
  type ElicitationValue,
} from '../../host/contract/api-contract.ts';
import type { ElicitationProblem } from '../state/elicitation-slice.ts';
import { useAppStore } from './use-app-store.ts';
import './elicitation-form.css';

/** Every question plugins wait on, each as its plugin's own form (never an approval card). */
export function ElicitationQuestions() {
  const questions = useAppStore(useShallow((state) => state.elicitations));
  if (questions.length === 0) return null;
  return (
    <div className="elicitation-stack">
      {questions.map((question) => (
        <ElicitationForm key={question.id} question={question} />
      ))}
    </div>
  );
}

/** What a field holds while the person edits it: a number field keeps its text until sent. */
type Draft = Record<string, ElicitationValue | undefined>;

/**
 * A plugin's question during a call: its name as the heading ("mcp-NAME asks"), its message, a form
 * built from its schema with the defaults filled in, and Send, Decline and Cancel.
 */
function ElicitationForm(props: { question: ElicitationRequestNotice }) {
  const { question } = props;
  const answer = useAppStore((state) => state.answerElicitation);
  const problem = useAppStore((state) => state.elicitationProblems[question.id]);
  const [draft, setDraft] = useState<Draft>(() => ({ ...question.defaults }));
  const [sending, setSending] = useState(false);
  const fields = Object.entries(question.requestedSchema.properties);
  const headingId = `elicitation-${question.id}-heading`;
  const run = (work: Promise<void>): void => {
    setSending(true);
    void work.finally(() => setSending(false));
  };
  const send = (event: FormEvent): void => {
    event.preventDefault();
    run(answer(question.id, { action: 'accept', content: contentOf(question, draft) }));
  };
  return (
    <section className="elicitation" aria-label={`Question from ${question.plugin}`} data-testid="elicitation">
      <h2 className="elicitation-heading" id={headingId}>
        {question.plugin} asks
      </h2>
      <p className="elicitation-message">{question.message}</p>
      {problem && (
        <p className="elicitation-problem" role="alert">
          {problem.message}
        </p>
      )}
      <form className="elicitation-form" onSubmit={send} aria-labelledby={headingId}>
        {fields.map(([key, field]) => (
          <FieldInput
            key={key}
            id={`elicitation-${question.id}-${key}`}
            name={key}
            field={field}
            required={question.requestedSchema.required?.includes(key) === true}
            value={draft[key]}
            problem={problem}
            onChange={(value) => setDraft((before) => ({ ...before, [key]: value }))}
          />
        ))}
        <div className="elicitation-actions">
          <button type="submit" className="elicitation-send" disabled={sending}>
            Send
          </button>
          <button type="button" disabled={sending} onClick={() => run(answer(question.id, { action: 'decline' }))}>
            Decline
          </button>
          <button type="button" disabled={sending} onClick={() => run(answer(question.id, { action: 'cancel' }))}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}

function FieldInput(props: {
  id: string;
  name: string;
  field: ElicitationField;
  required: boolean;
  value: ElicitationValue | undefined;
  problem: ElicitationProblem | undefined;
  onChange: (value: ElicitationValue | undefined) => void;
}) {
  const { id, field, value, onChange } = props;
  const label = `${field.title ?? props.name}${props.required ? ' (required)' : ''}`;
  const error = props.problem?.fields[props.name];
  const describedBy = [field.description ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const described = describedBy ? { 'aria-describedby': describedBy } : {};
  const invalid = error ? { 'aria-invalid': true as const } : {};
  const notes = (
    <>
      {field.description && (
        <span className="elicitation-hint" id={`${id}-hint`}>
          {field.description}
        </span>
      )}
      {error && (
        <span className="elicitation-field-problem" id={`${id}-error`}>
          {error}
        </span>
      )}
    </>
  );
  const choices = choicesOf(field);
  if (field.type === 'array') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="elicitation-field" {...described}>
        <legend>{label}</legend>
        {(choices ?? []).map((choice) => (
          <label key={choice.value} className="elicitation-choice">
            <input
              type="checkbox"
              checked={chosen.includes(choice.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? [...chosen, choice.value] : chosen.filter((item) => item !== choice.value),
                )
              }
            />
            {choice.title}
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }
  if (field.type === 'boolean')
    return (
      <div className="elicitation-field">
        <label className="elicitation-choice" htmlFor={id}>
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            {...described}
            {...invalid}
          />
          {label}
        </label>
        {notes}
      </div>
    );
  return (
    <div className="elicitation-field">
      <label htmlFor={id}>{label}</label>
      {field.type === 'string' && choices ? (
        <select
          id={id}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
          {...described}
          {...invalid}
        >
          {(value === undefined || !props.required) && <option value="">—</option>}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.title}
            </option>
          ))}
        </select>
      ) : field.type === 'string' ? (
        <input
          id={id}
          type={textInputTypes[field.format ?? 'text']}
          {...(field.format === 'date-time' ? { placeholder: 'e.g. 2026-12-04T18:30:00+01:00' } : {})}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
          {...described}
          {...invalid}
        />
      ) : (
        <input
          id={id}
          type="number"
          step={field.type === 'integer' ? 1 : 'any'}
          {...(field.minimum !== undefined ? { min: field.minimum } : {})}
          {...(field.maximum !== undefined ? { max: field.maximum } : {})}
          value={value === undefined ? '' : String(value)}
          onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
          {...described}
          {...invalid}
        />
      )}
      {notes}
    </div>
  );
}

/**
 * The input for each text format. A date's value is the format's own (YYYY-MM-DD); a date and time
 * stays text with an example, since the browser's date-time input drops the time zone.
 */
const textInputTypes: Record<NonNullable<Extract<ElicitationField, { type: 'string' }>['format']> | 'text', string> = {
  text: 'text',
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'text',
};

/** The values to send: numbers as numbers, fields left empty left out (the host fills their defaults). */
function contentOf(question: ElicitationRequestNotice, draft: Draft): Record<string, ElicitationValue> {
  const content: Record<string, ElicitationValue> = {};
  for (const [key, field] of Object.entries(question.requestedSchema.properties)) {
    const value = draft[key];
    if (value === undefined) continue;
    if ((field.type === 'number' || field.type === 'integer') && typeof value === 'string') {
      const number = Number(value);
      // Text that is not a number is sent as it is: the host names the field and why.
      content[key] = value.trim() !== '' && Number.isFinite(number) ? number : value;
    } else content[key] = value;
  }
  return content;
}
