/**
 * The one rule for showing text that a device or a person named (a model, a firmware, an alias, a
 * description) on a terminal or to the model: every character that could act instead of being
 * read — C0 and C1 controls and DEL, format characters (bidi controls, zero-width characters, the
 * BOM, tag characters), line and paragraph separators, and the other default-ignorable code points
 * (Hangul fillers, variation selectors) — is shown as JSON's `\uXXXX` escape of each UTF-16 code
 * unit. One presentation selector (U+FE0E, U+FE0F) right after a visible character stays: it only
 * picks how an emoji looks. Backslashes stay as they are, so the escape of JSON text is still the
 * same JSON value.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

const ONE_UNSAFE = new RegExp(`^${UNSAFE.source}$`, 'u');

/** Characters a name may not hold at all: controls, line and paragraph breaks, bidi embeddings, overrides and isolates. */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/u;

/** `text` with every unsafe character escaped: safe on one line of a terminal and in a prompt. */
export function safeText(text: string): string {
  return text.replace(UNSAFE, (character, offset: number) =>
    keptSelector(text, character, offset) ? character : escapeOf(character),
  );
}

/** Like `safeText`, but line feeds stay: for text that is meant to have lines (a prompt section, a reply). */
export function safeLines(text: string): string {
  return text.split('\n').map(safeText).join('\n');
}

/** The escapes of the characters `safeText` would escape, each once, in the order they first appear. */
export function unsafeCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(UNSAFE))
    if (!keptSelector(text, match[0], match.index)) found.add(escapeOf(match[0]));
  return [...found];
}

/** The escape of the first character a name may not hold (a control or a bidi control), if any. */
export function firstControlCharacter(text: string): string | undefined {
  const match = CONTROL.exec(text);
  return match ? escapeOf(match[0]) : undefined;
}

/** True when nothing in `text` is visible: only white space and characters `safeText` escapes. */
export function isInvisible(text: string): boolean {
  return text.replace(UNSAFE, '').trim() === '';
}

/** A presentation selector right after a visible character, and not followed by another unsafe character. */
function keptSelector(text: string, character: string, offset: number): boolean {
  if (character !== '\ufe0e' && character !== '\ufe0f') return false;
  const previous = codePointBefore(text, offset);
  if (previous === undefined || isUnsafe(previous) || /\s/u.test(previous)) return false;
  const next = text.codePointAt(offset + 1);
  return next === undefined || !isUnsafe(String.fromCodePoint(next));
}

function codePointBefore(text: string, offset: number): string | undefined {
  if (offset === 0) return undefined;
  const low = text.charCodeAt(offset - 1);
  const isPair = low >= 0xdc00 && low <= 0xdfff && offset >= 2;
  return text.slice(isPair ? offset - 2 : offset - 1, offset);
}

function isUnsafe(character: string): boolean {
  return ONE_UNSAFE.test(character);
}

function escapeOf(character: string): string {
  let escaped = '';
  for (let index = 0; index < character.length; index += 1)
    escaped += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return escaped;
}
