/**
 * How deep JSON from outside may nest (a call's arguments, a device's frame; the outer object or
 * array is level 1). Real tool schemas and frames nest a handful of levels; 64 leaves room for any
 * of them while keeping every recursive walk the value meets later (validation, slot references,
 * JSON writers with a replacer, the web socket, the renderer) far from the stack limit, which
 * 2,500 nested arrays reached. The one bound the kernel and devices share.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `{`/`[` outside strings open more than `limit` levels at some point of the JSON text.
 * Read with a loop, never recursion, so it can be asked before `JSON.parse` builds a tree that
 * every later recursive walk (a replacer, a validator, a renderer) would overflow the stack on.
 */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let position = 0; position < text.length; position += 1) {
    const code = text.charCodeAt(position);
    if (inString) {
      if (code === 0x5c /* \ */) position += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) depth -= 1;
  }
  return false;
}
