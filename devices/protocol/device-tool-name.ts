/** The tool a device action becomes: one per kind and action (`lamp__set`), shared by every device of the kind. */
export function deviceToolName(kind: string, action: string): string {
  return `${kind}__${action}`;
}
