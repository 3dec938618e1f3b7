import {
  elicitationFieldSchema,
  type ElicitationField,
  type ElicitationForm,
  type ElicitationValue,
} from './elicitation-contract.ts';

/** One problem of an answer, on the field it names, in words for the person. */
export interface ElicitationIssue {
  path: string;
  message: string;
}

/** The choices a field offers (`enum`, titled `oneOf` / `anyOf`), with the words shown for each. */
export function choicesOf(field: ElicitationField): { value: string; title: string }[] | undefined {
  if (field.type === 'string') {
    if (field.oneOf) return field.oneOf.map((option) => ({ value: option.const, title: option.title }));
    if (field.enum) return field.enum.map((value, index) => ({ value, title: field.enumNames?.[index] ?? value }));
    return undefined;
  }
  if (field.type === 'array')
    return 'anyOf' in field.items
      ? field.items.anyOf.map((option) => ({ value: option.const, title: option.title }))
      : field.items.enum.map((value) => ({ value, title: value }));
  return undefined;
}

/**
 * The form's first values (SEP-1034): each field's default, when the field is one a form can have
 * and the default fits it. Takes a form as its asker sent it, before it is checked whole.
 */
export function elicitationDefaultsOf(form: { properties: Record<string, unknown> }): Record<string, ElicitationValue> {
  const defaults: Record<string, ElicitationValue> = {};
  for (const [key, declared] of Object.entries(form.properties)) {
    const field = elicitationFieldSchema.safeParse(declared);
    if (!field.success || field.data.default === undefined) continue;
    if (fieldProblem(field.data, field.data.default) === undefined) defaults[key] = field.data.default;
  }
  return defaults;
}

/**
 * Checks the person's values against the form: every required field given, each value of its
 * field's type, within its bounds and among its choices, and no field the form does not have.
 * The issues, one per field found wrong; none when the answer fits.
 */
export function elicitationContentIssues(
  form: ElicitationForm,
  content: Record<string, ElicitationValue>,
): ElicitationIssue[] {
  const issues: ElicitationIssue[] = [];
  for (const key of Object.keys(content))
    if (!Object.hasOwn(form.properties, key))
      issues.push({ path: key, message: `${key} is not a field of this form: leave it out` });
  for (const [key, field] of Object.entries(form.properties)) {
    const value = content[key];
    if (value === undefined) {
      if (form.required?.includes(key)) issues.push({ path: key, message: `${labelOf(key, field)} is required` });
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem !== undefined) issues.push({ path: key, message: `${labelOf(key, field)} ${problem}` });
  }
  return issues;
}

function labelOf(key: string, field: ElicitationField): string {
  return field.title ?? key;
}

/** What is wrong with one value of one field, or undefined. */
function fieldProblem(field: ElicitationField, value: ElicitationValue): string | undefined {
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      const choices = choicesOf(field);
      if (choices && !choices.some((choice) => choice.value === value))
        return `must be one of: ${choices.map((choice) => choice.title).join(', ')}`;
      if (field.minLength !== undefined && value.length < field.minLength)
        return `must have at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return `must have at most ${field.maxLength} characters`;
      return undefined;
    }
    case 'array': {
      if (!Array.isArray(value)) return 'must be a list of choices';
      const choices = choicesOf(field) ?? [];
      const unknown = value.find((item) => !choices.some((choice) => choice.value === item));
      if (unknown !== undefined) return `offers no choice ${JSON.stringify(unknown)}`;
      if (field.minItems !== undefined && value.length < field.minItems)
        return `needs at least ${field.minItems} choices`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `takes at most ${field.maxItems} choices`;
      return undefined;
    }
  }
}
