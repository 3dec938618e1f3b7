import { z } from 'zod';

/** Why a tool call failed; the kernel, the model and every front end read this field. */
export const toolErrorReasonSchema = z.enum([
  'not_found',
  'required',
  'type',
  'invalid_json',
  'unauthorized',
  'denied',
  'timeout',
  'device_offline',
  'aborted',
  'failed',
]);
export type ToolErrorReason = z.infer<typeof toolErrorReasonSchema>;

/** The plain-data shape of a tool failure, as stored, sent to front ends and rendered for the model. */
export const toolErrorDataSchema = z.object({
  reason: toolErrorReasonSchema,
  field: z.string().optional(),
  detail: z.string().optional(),
  hint: z.string().optional(),
});
export type ToolErrorData = z.infer<typeof toolErrorDataSchema>;

const TOOL_ERROR_MARK = Symbol.for('home-agent.ToolError');

/**
 * A tool failure as a value with fields. Handlers may throw it or return it; `ToolError.isInstance`
 * works across realms (it checks a registered symbol, not the prototype).
 */
export class ToolError extends Error {
  readonly [TOOL_ERROR_MARK] = true;
  readonly reason: ToolErrorReason;
  readonly field?: string;
  readonly detail?: string;
  readonly hint?: string;

  constructor(data: ToolErrorData) {
    super(data.detail ?? data.reason);
    this.name = 'ToolError';
    this.reason = data.reason;
    if (data.field !== undefined) this.field = data.field;
    if (data.detail !== undefined) this.detail = data.detail;
    if (data.hint !== undefined) this.hint = data.hint;
  }

  static isInstance(value: unknown): value is ToolError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_ERROR_MARK] === true;
  }

  toData(): ToolErrorData {
    const data: ToolErrorData = { reason: this.reason };
    if (this.field !== undefined) data.field = this.field;
    if (this.detail !== undefined) data.detail = this.detail;
    if (this.hint !== undefined) data.hint = this.hint;
    return data;
  }
}
