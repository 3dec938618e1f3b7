import { useEffect, useId, useRef, useState } from 'react';
import { z } from 'zod';

/** The argument that names a call's device: shown, never editable (the host refuses a change too). */
const DEVICE_ARGUMENT = 'device_id';

const argumentsObject = z.record(z.string(), z.unknown());

/** Reads the person's text as one JSON object, or says what is wrong with it and what to do. */
function readArguments(text: string): { ok: true; args: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `These arguments are not JSON (${(error as Error).message}). Write one JSON object.` };
  }
  const parsed = argumentsObject.safeParse(value);
  if (!parsed.success || Array.isArray(value))
    return { ok: false, problem: 'The arguments must be one JSON object, like {"channel": 3, "on": true}.' };
  return { ok: true, args: parsed.data };
}

/**
 * The person's own arguments for a call, as JSON, before they allow it: every argument but the
 * device's, which stays as the model asked. The host checks them as it checks the model's (the
 * tool's schema, the input bounds, the grant) and says what is wrong; the call then runs with them, once.
 */
export function ArgumentsEditor(props: {
  id: string;
  toolName: string;
  args: Record<string, unknown>;
  disabled: boolean;
  onCancel: () => void;
  onAllow: (args: Record<string, unknown>) => void;
}) {
  const { args } = props;
  const device = Object.hasOwn(args, DEVICE_ARGUMENT) ? args[DEVICE_ARGUMENT] : undefined;
  const [text, setText] = useState(() =>
    JSON.stringify(Object.fromEntries(Object.entries(args).filter(([key]) => key !== DEVICE_ARGUMENT)), null, 2),
  );
  const [problem, setProblem] = useState<string | undefined>();
  const field = useRef<HTMLTextAreaElement>(null);
  const problemId = useId();
  // Opened by the person's own press: the field they came to edit takes the focus.
  useEffect(() => field.current?.focus(), []);
  return (
    <form
      className="arguments-editor"
      id={props.id}
      data-testid="arguments-editor"
      onSubmit={(event) => {
        event.preventDefault();
        const read = readArguments(text);
        if (!read.ok) return setProblem(read.problem);
        setProblem(undefined);
        props.onAllow({ ...(device !== undefined ? { [DEVICE_ARGUMENT]: device } : {}), ...read.args });
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        props.onCancel();
      }}
    >
      <label className="arguments-editor-label">
        Arguments of {props.toolName} (JSON)
        {device !== undefined && (
          <span className="arguments-editor-device" data-testid="arguments-editor-device">
            {' '}
            — {DEVICE_ARGUMENT} stays {JSON.stringify(device)}
          </span>
        )}
        <textarea
          ref={field}
          className="arguments-editor-text"
          data-testid="arguments-editor-text"
          value={text}
          rows={Math.min(12, text.split('\n').length + 1)}
          spellCheck={false}
          aria-invalid={problem !== undefined}
          aria-describedby={problem !== undefined ? problemId : undefined}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {problem !== undefined && (
        <p className="approval-answer-failed" id={problemId} role="alert" data-testid="arguments-editor-problem">
          {problem}
        </p>
      )}
      <div className="approval-actions">
        <button
          type="submit"
          className="button button-small button-primary"
          data-testid="allow-edited-button"
          disabled={props.disabled}
        >
          Allow once with these arguments
        </button>
        <button type="button" className="button button-small" data-testid="cancel-edit-button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
