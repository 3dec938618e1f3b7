import { describe, expect, it } from 'vitest';
import { jsonArrayElements } from '../../../../core/models/http/json-array-elements.ts';
import { ndjsonLines } from '../../../../core/models/http/ndjson-lines.ts';
import { sseEvents } from '../../../../core/models/http/sse-events.ts';

async function* pieces(texts: string[]): AsyncGenerator<string> {
  yield* texts;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}

describe('jsonArrayElements', () => {
  const text = '[{"a":"x ] } [ \\" {"},\r\n {"b":[1,{"c":2}]} ]';

  it('splits a streamed array into whole elements wherever the chunks break', async () => {
    for (let cut = 0; cut <= text.length; cut++) {
      const items = await all(jsonArrayElements(pieces([text.slice(0, cut), text.slice(cut)])));
      expect(items).toEqual([
        { type: 'element', text: '{"a":"x ] } [ \\" {"}' },
        { type: 'element', text: '{"b":[1,{"c":2}]}' },
        { type: 'end' },
      ]);
    }
  });

  it('yields no end when the array is cut before its closing bracket', async () => {
    expect(await all(jsonArrayElements(pieces(['[{"a":1},{"b":'])))).toEqual([{ type: 'element', text: '{"a":1}' }]);
  });

  it('hands back what is not an array element so the parser rejects it', async () => {
    expect(await all(jsonArrayElements(pieces(['data: {}'])))).toEqual([{ type: 'element', text: 'd' }]);
  });
});

describe('sseEvents', () => {
  it('reads CRLF framing and marks a last event that lacks its blank line', async () => {
    const events = await all(sseEvents(pieces(['data: {"a":1}\r', '\n\r\nevent: x\r\ndata: {"b"', ':2}'])));
    expect(events).toEqual([
      { event: undefined, data: '{"a":1}', atEnd: false },
      { event: 'x', data: '{"b":2}', atEnd: true },
    ]);
  });
});

describe('ndjsonLines', () => {
  it('joins lines across chunks and marks an unterminated last line', async () => {
    expect(await all(ndjsonLines(pieces(['{"a":', '1}\n\n{"b"', ':2}'])))).toEqual([
      { line: '{"a":1}', atEnd: false },
      { line: '{"b":2}', atEnd: true },
    ]);
  });
});
