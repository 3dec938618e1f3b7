/**
 * How many bytes `text` takes as UTF-8, counted without encoding it (budgets count every streamed
 * part and every result, so no buffer is made just to learn a length).
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4; // a surrogate pair is one four-byte character
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}
