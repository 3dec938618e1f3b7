import type { SettingIssue } from '../contract/settings-table.ts';

/** The HTTP-style status of an API failure; every transport carries it. */
export type ApiErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500;

/**
 * An API failure a transport turns into a status and a message a person can act on; a refused
 * value also names its field and the issues found, so a form can show them beside the field.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly field: string | undefined;
  readonly issues: SettingIssue[] | undefined;

  constructor(
    readonly status: ApiErrorStatus,
    message: string,
    details: { field?: string; issues?: SettingIssue[] } = {},
  ) {
    super(message);
    this.field = details.field;
    this.issues = details.issues;
  }
}
