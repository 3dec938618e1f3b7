import { z } from 'zod';

/**
 * A plugin's question to the person during a call (an MCP server's `elicitation/create`, form mode):
 * the form's schema as the window may be given it (bounded), the notices that open and close it, and
 * the person's answer. Only a person answers one; the model never sees it.
 */

/** The most fields a form may have: a larger one is declined without being shown. */
export const MAX_ELICITATION_FIELDS = 50;
/** The most choices one field may offer. */
const MAX_CHOICES = 100;

const words = (max: number) => z.string().max(max);
const fieldBase = { title: words(200).optional(), description: words(1_000).optional() };
const choice = z.object({ const: words(200), title: words(200) });

/** A text field: free text (bounded, with a format), or one of its `enum` / titled `oneOf` choices. */
const stringField = z.object({
  ...fieldBase,
  type: z.literal('string'),
  minLength: z.number().int().min(0).optional(),
  maxLength: z.number().int().min(0).optional(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  enum: z.array(words(200)).min(1).max(MAX_CHOICES).optional(),
  enumNames: z.array(words(200)).max(MAX_CHOICES).optional(),
  oneOf: z.array(choice).min(1).max(MAX_CHOICES).optional(),
  default: words(10_000).optional(),
});

const numberField = z.object({
  ...fieldBase,
  type: z.enum(['number', 'integer']),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});

const booleanField = z.object({ ...fieldBase, type: z.literal('boolean'), default: z.boolean().optional() });

/** Several of a list of choices (`items.enum`, or titled `items.anyOf`). */
const multiSelectField = z.object({
  ...fieldBase,
  type: z.literal('array'),
  minItems: z.number().int().min(0).optional(),
  maxItems: z.number().int().min(0).optional(),
  items: z.union([
    z.object({ type: z.literal('string'), enum: z.array(words(200)).min(1).max(MAX_CHOICES) }),
    z.object({ anyOf: z.array(choice).min(1).max(MAX_CHOICES) }),
  ]),
  default: z.array(words(200)).max(MAX_CHOICES).optional(),
});

export const elicitationFieldSchema = z.union([stringField, numberField, booleanField, multiSelectField]);
export type ElicitationField = z.infer<typeof elicitationFieldSchema>;

/** A form as the window is given it: at most MAX_ELICITATION_FIELDS fields, each one of the kinds above. */
export const elicitationFormSchema = z.object({
  type: z.literal('object'),
  properties: z
    .record(words(100), elicitationFieldSchema)
    .refine((properties) => Object.keys(properties).length <= MAX_ELICITATION_FIELDS, {
      message: `a form has at most ${MAX_ELICITATION_FIELDS} fields`,
    }),
  required: z.array(words(100)).max(MAX_ELICITATION_FIELDS).optional(),
});
export type ElicitationForm = z.infer<typeof elicitationFormSchema>;

/** One value of an answered form: what the form's fields can hold. */
export const elicitationValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type ElicitationValue = z.infer<typeof elicitationValueSchema>;

/** A question put to the person's front ends (a live notice, never journaled). */
export const elicitationRequestNoticeSchema = z.object({
  type: z.literal('elicitation/request'),
  id: z.string(),
  /** The plugin that asks (`mcp-NAME`): the form is shown as that plugin's. */
  plugin: z.string(),
  /** The asker's own words above the form. */
  message: words(2_000),
  requestedSchema: elicitationFormSchema,
  /** The form's first values: the schema's defaults. */
  defaults: z.record(z.string(), elicitationValueSchema),
});
export type ElicitationRequestNotice = z.infer<typeof elicitationRequestNoticeSchema>;

/**
 * How a question ended: the person sent, declined or cancelled the form (`cancel` also when nobody
 * answered in time), or the asker withdrew it (its call was stopped, its connection closed).
 */
export const elicitationEndActionSchema = z.enum(['accept', 'decline', 'cancel', 'withdrawn']);

export const elicitationEndNoticeSchema = z.object({
  type: z.literal('elicitation/end'),
  id: z.string(),
  action: elicitationEndActionSchema,
});
export type ElicitationEndNotice = z.infer<typeof elicitationEndNoticeSchema>;

/** The person's answer: Send (`accept`, with the form's values), Decline, or Cancel. */
export const elicitationAnswerSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.record(words(100), elicitationValueSchema) }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
]);
export type ElicitationAnswer = z.infer<typeof elicitationAnswerSchema>;

export const elicitationContract = {
  /**
   * The person's answer to the open question `id`. Values that do not fit the form (a wrong type, a
   * required field missing, a choice not offered) are refused with 400 naming the field; a question
   * that no longer waits answers `accepted: false` with why.
   */
  'elicitation/answer': {
    input: z.object({
      id: z.string().min(1).max(200),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(words(100), elicitationValueSchema).optional(),
    }),
    output: z.object({ accepted: z.boolean(), message: z.string().optional() }),
  },
  /** The questions waiting for an answer now (for a window that opens while one waits). */
  'elicitations/list': {
    input: z.object({}),
    output: z.object({ questions: z.array(elicitationRequestNoticeSchema) }),
  },
} as const;
