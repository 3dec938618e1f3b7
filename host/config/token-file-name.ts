/**
 * Each credential a front end keeps in the data folder is a file `NAME-token`, so the data folder
 * knows its credentials without knowing the front ends that keep them.
 */
export type TokenFileName = `${string}-token`;

/** The person's front ends' credential (window, browser UI, terminal). */
export const WEB_TOKEN_FILE: TokenFileName = 'web-token';

/** Whether a file of the data folder holds a credential (any front end's `NAME-token`). */
export function isTokenFileName(name: string): name is TokenFileName {
  return /^[a-z][a-z0-9]*-token$/.test(name);
}
