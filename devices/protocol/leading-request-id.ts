// `{"id":123,` at the very start of a line: JSON whitespace allowed, at most 16 digits, no leading zeros.
const LEADING_ID = /^[ \t\r\n]*\{[ \t\r\n]*"id"[ \t\r\n]*:[ \t\r\n]*(0|[1-9][0-9]{0,15})[ \t\r\n]*[,}]/;

/**
 * The id of a request read from the start of its line alone, as firmware does when the rest is
 * unreadable (longer than its buffer, or not JSON): null when the line does not start with one.
 */
export function leadingRequestId(line: string): number | null {
  const match = LEADING_ID.exec(line);
  if (match === null) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}
