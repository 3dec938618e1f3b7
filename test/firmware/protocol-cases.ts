// The protocol cases of docs/serial-protocol.md, written out by hand for a lamp that starts off at
// brightness 100: each request line and what the device must answer. Both the TypeScript simulator
// and the Arduino library must answer every case exactly so.

/** What a device must do with one request line. */
export type Expected =
  | { ok: true; id: number; result: unknown }
  | { ok: false; id: number; reason: string; field?: string }
  | { hello: number }
  | 'no answer';

export interface ProtocolCase {
  name: string;
  /** The line, given the device's stated maxFrameBytes (for the cases at and over the limit). */
  line(maxFrameBytes: number): string;
  expected: Expected;
}

/** A `get` of exactly `length` bytes: its unknown `pad` argument is ignored by the lamp. */
function getOfLength(id: number, length: number): string {
  const empty = `{"id":${id},"op":"call","tool":"get","args":{"pad":""}}`;
  return empty.replace('"pad":""', `"pad":"${'p'.repeat(length - empty.length)}"`);
}

const fixed = (line: string) => () => line;

export const PROTOCOL_CASES: readonly ProtocolCase[] = [
  { name: 'hello', line: fixed('{"id":1,"op":"hello"}'), expected: { hello: 1 } },
  {
    name: 'get on a fresh lamp',
    line: fixed('{"id":2,"op":"call","tool":"get","args":{}}'),
    expected: { ok: true, id: 2, result: { on: false, brightness: 100 } },
  },
  {
    name: 'set both',
    line: fixed('{"id":3,"op":"call","tool":"set","args":{"on":true,"brightness":40}}'),
    expected: { ok: true, id: 3, result: { on: true, brightness: 40 } },
  },
  {
    name: 'set nothing',
    line: fixed('{"id":4,"op":"call","tool":"set","args":{}}'),
    expected: { ok: false, id: 4, reason: 'required', field: 'on' },
  },
  {
    name: 'brightness over the maximum',
    line: fixed('{"id":5,"op":"call","tool":"set","args":{"brightness":150}}'),
    expected: { ok: false, id: 5, reason: 'type', field: 'brightness' },
  },
  {
    name: 'on as a string',
    line: fixed('{"id":6,"op":"call","tool":"set","args":{"on":"yes"}}'),
    expected: { ok: false, id: 6, reason: 'type', field: 'on' },
  },
  {
    name: 'brightness with a fraction',
    line: fixed('{"id":7,"op":"call","tool":"set","args":{"brightness":40.5}}'),
    expected: { ok: false, id: 7, reason: 'type', field: 'brightness' },
  },
  {
    name: 'get after the refused calls: nothing changed (args may be left out)',
    line: fixed('{"id":8,"op":"call","tool":"get"}'),
    expected: { ok: true, id: 8, result: { on: true, brightness: 40 } },
  },
  {
    name: 'an action the device does not have',
    line: fixed('{"id":9,"op":"call","tool":"dance","args":{}}'),
    expected: { ok: false, id: 9, reason: 'not_found' },
  },
  {
    name: 'an unknown op',
    line: fixed('{"id":10,"op":"reboot"}'),
    expected: { ok: false, id: 10, reason: 'invalid_frame' },
  },
  {
    name: 'a call without a tool',
    line: fixed('{"id":11,"op":"call"}'),
    expected: { ok: false, id: 11, reason: 'invalid_frame' },
  },
  {
    name: 'args that are not an object',
    line: fixed('{"id":12,"op":"call","tool":"get","args":[1]}'),
    expected: { ok: false, id: 12, reason: 'invalid_frame' },
  },
  {
    name: 'a request cut off: not JSON, but its id comes first',
    line: fixed('{"id":13,"op":"call","tool":'),
    expected: { ok: false, id: 13, reason: 'invalid_json' },
  },
  {
    name: 'a request one byte over maxFrameBytes, id first',
    line: (maxFrameBytes) => getOfLength(14, maxFrameBytes + 1),
    expected: { ok: false, id: 14, reason: 'failed' },
  },
  {
    name: 'a request exactly maxFrameBytes long',
    line: (maxFrameBytes) => getOfLength(15, maxFrameBytes),
    expected: { ok: true, id: 15, result: { on: true, brightness: 40 } },
  },
  { name: 'binary garbage', line: fixed('\u0000\u00ff{"id":garbage\u0007]]'), expected: 'no answer' },
  { name: 'an id that is a string', line: fixed('{"id":"16","op":"hello"}'), expected: 'no answer' },
  { name: 'a negative id', line: fixed('{"id":-1,"op":"hello"}'), expected: 'no answer' },
  { name: 'the id not first (the line fits)', line: fixed('{"op":"hello","id":17}'), expected: { hello: 17 } },
  {
    name: 'unknown top-level keys are ignored',
    line: fixed('{"id":18,"op":"call","tool":"get","args":{},"trace":"abc"}'),
    expected: { ok: true, id: 18, result: { on: true, brightness: 40 } },
  },
  {
    name: 'a line ended by CR LF',
    line: fixed('{"id":19,"op":"call","tool":"set","args":{"on":false}}\r'),
    expected: { ok: true, id: 19, result: { on: false, brightness: 40 } },
  },
  {
    name: 'a NUL after a whole request: the line is not JSON, and nothing runs',
    line: fixed('{"id":20,"op":"call","tool":"set","args":{"on":true}}\u0000{"trailing":1}'),
    expected: { ok: false, id: 20, reason: 'invalid_json' },
  },
  {
    name: 'a NUL inside a string of the request',
    line: fixed('{"id":21,"op":"call","tool":"set","args":{"on":true,"note":"a\u0000b"}}'),
    expected: { ok: false, id: 21, reason: 'invalid_json' },
  },
  {
    name: 'get after the lines with a NUL: the lamp is still off',
    line: fixed('{"id":22,"op":"call","tool":"get","args":{}}'),
    expected: { ok: true, id: 22, result: { on: false, brightness: 40 } },
  },
];
