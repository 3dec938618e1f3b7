/** Replaces every secret (API keys) in a text meant for people, so no message ever prints a key. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join('***');
  }
  return result;
}
