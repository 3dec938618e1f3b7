import { describe, expect, it } from 'vitest';
import { safeLines, safeText, unsafeCharacters } from '../../../core/text/safe-text.ts';
import { displayNameSchema } from '../../../core/text/display-name-schema.ts';

// Every expected value below is written out by hand from the Unicode code points (UTF-16 code units
// in JSON's \uXXXX form), never taken from the code under test.
describe('safeText', () => {
  it('shows C0 and C1 controls, DEL, CR and LF as visible escapes', () => {
    expect(safeText('a\u0000b')).toBe('a\\u0000b');
    expect(safeText('\u001b[2J\u001b]0;owned\u0007')).toBe('\\u001b[2J\\u001b]0;owned\\u0007');
    expect(safeText('line\r\nnext\ttab')).toBe('line\\u000d\\u000anext\\u0009tab');
    expect(safeText('del\u007f csi\u009b')).toBe('del\\u007f csi\\u009b');
  });

  it('shows bidi controls, zero-width characters, separators and the BOM as escapes', () => {
    expect(safeText('lamp\u202egnp.exe')).toBe('lamp\\u202egnp.exe');
    expect(safeText('\u2066x\u2069 \u200e\u200f')).toBe('\\u2066x\\u2069 \\u200e\\u200f');
    expect(safeText('ad\u200bmin\u200c\u200d\u2060\ufeff')).toBe('ad\\u200bmin\\u200c\\u200d\\u2060\\ufeff');
    expect(safeText('a\u2028b\u2029c\u00add')).toBe('a\\u2028b\\u2029c\\u00add');
    expect(safeText('\u3164\u115f')).toBe('\\u3164\\u115f');
  });

  it('shows a tag character (invisible text smuggled past the eye) as its surrogate pair', () => {
    // U+E0041 TAG LATIN CAPITAL LETTER A: 0xE0041 − 0x10000 = 0xD0041 → high 0xD800 + 0x340, low 0xDC00 + 0x041.
    expect(safeText('ok\u{e0041}')).toBe('ok\\udb40\\udc41');
  });

  it('leaves visible text alone: accents, CJK, emoji with its presentation selector, backslashes, spaces', () => {
    for (const text of ['Küche – Decke', '台灯', 'Lámpara 💡', '❤️ Sofa', 'C:\\path', 'a\u00a0b', 'plain']) {
      expect(safeText(text)).toBe(text);
    }
  });

  it('escapes a presentation selector that follows nothing visible (a run of them hides data)', () => {
    expect(safeText('\ufe0f')).toBe('\\ufe0f');
    expect(safeText('a\ufe0f\ufe0e')).toBe('a\\ufe0f\\ufe0e');
    expect(safeText('a\ufe01')).toBe('a\\ufe01');
  });

  it('keeps JSON valid and equal in value when applied to JSON text', () => {
    const value = { model: 'x\u202e\u0085y', list: ['\u{e0041}', '\u2028'] };
    const shown = safeText(JSON.stringify(value));
    expect(shown).toBe('{"model":"x\\u202e\\u0085y","list":["\\udb40\\udc41","\\u2028"]}');
    expect(JSON.parse(shown)).toEqual(value);
  });
});

describe('safeLines', () => {
  it('keeps line feeds and escapes everything else safeText escapes', () => {
    expect(safeLines('one\ntwo\r\n\u001b[1Athree\u202e')).toBe('one\ntwo\\u000d\n\\u001b[1Athree\\u202e');
  });
});

describe('unsafeCharacters', () => {
  it('lists the escapes of the characters that would be escaped, once each, in order', () => {
    expect(unsafeCharacters('a\u001bb\u202ec\u001b')).toEqual(['\\u001b', '\\u202e']);
    expect(unsafeCharacters('Desk lamp 💡')).toEqual([]);
  });
});

describe('displayNameSchema', () => {
  const issue = (name: string) => {
    const parsed = displayNameSchema.safeParse(name);
    return parsed.success ? undefined : parsed.error.issues[0]?.message;
  };

  it('takes a visible name, trimmed, up to 100 characters', () => {
    expect(displayNameSchema.parse('  Desk lamp ')).toBe('Desk lamp');
    expect(displayNameSchema.parse('x'.repeat(100))).toBe('x'.repeat(100));
    expect(displayNameSchema.parse('چراغ\u200cخواب')).toBe('چراغ\u200cخواب');
  });

  it('refuses an empty or overlong name', () => {
    expect(issue('   ')).toBe('the name is empty');
    expect(issue('x'.repeat(101))).toBe('the name is longer than 100 characters');
  });

  it('refuses control characters, line breaks and bidi controls, naming the first', () => {
    expect(issue('Desk\nlamp')).toBe(
      'the name holds a control character (\\u000a): names are shown on terminals and to the model as one line',
    );
    expect(issue('lamp\u001b[2J')).toContain('(\\u001b)');
    expect(issue('lamp\u0000')).toContain('(\\u0000)');
    expect(issue('lamp\u202eevil')).toContain('(\\u202e)');
    expect(issue('a\u2028b')).toContain('(\\u2028)');
  });

  it('refuses a name made only of invisible characters', () => {
    expect(issue('\u200b\u200b')).toBe(
      'the name is made only of invisible characters (\\u200b): give it letters or digits a person can read',
    );
    expect(issue('\u200d \u2060\ufeff\u3164')).toContain('made only of invisible characters');
  });
});
