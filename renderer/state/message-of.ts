/** The message of anything thrown, for a notice line. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
