/** One element of a streamed top-level JSON array, or the array's closing bracket. */
export type JsonArrayItem = { type: 'element'; text: string } | { type: 'end' };

/**
 * Splits a streamed top-level JSON array (`[{…},{…}]`, Gemini without `alt=sse`) into the text of
 * each element as soon as it is whole, tracking strings and escapes across chunk borders. Yields
 * `end` at the closing bracket; a body that stops before it simply ends (the caller sees no `end`).
 * Anything that is not an object or array where an element belongs is yielded as an element
 * (one character) and the split stops, so the caller's parser rejects it loudly.
 */
export async function* jsonArrayElements(text: AsyncIterable<string>): AsyncGenerator<JsonArrayItem, void, undefined> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = '';
  for await (const chunk of text) {
    for (const char of chunk) {
      if (depth >= 2) {
        element += char;
        if (inString) {
          if (escaped) escaped = false;
          else if (char === '\\') escaped = true;
          else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === '{' || char === '[') depth++;
        else if (char === '}' || char === ']') {
          depth--;
          if (depth === 1) {
            yield { type: 'element', text: element };
            element = '';
          }
        }
        continue;
      }
      if (/\s/.test(char)) continue;
      if (depth === 0 && char === '[') depth = 1;
      else if (depth === 1 && char === ',') continue;
      else if (depth === 1 && char === ']') {
        yield { type: 'end' };
        return;
      } else if (depth === 1 && (char === '{' || char === '[')) {
        element = char;
        depth = 2;
      } else {
        yield { type: 'element', text: char };
        return;
      }
    }
  }
}
