import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../devices/protocol/encode-frame.ts';
import { helloResultSchema } from '../../../devices/protocol/frame-schema.ts';
import { parseDeviceFrame } from '../../../devices/protocol/parse-device-frame.ts';
import { parseRequestFrame } from '../../../devices/protocol/parse-request-frame.ts';
import { encodeRequest, requestLimit } from '../../../devices/protocol/encode-request.ts';
import { leadingRequestId } from '../../../devices/protocol/leading-request-id.ts';

describe('parseDeviceFrame', () => {
  it('reads a success and a failure response', () => {
    expect(parseDeviceFrame('{"id":3,"ok":true,"result":{"on":true}}')).toEqual({
      kind: 'response',
      frame: { id: 3, ok: true, result: { on: true } },
    });
    expect(parseDeviceFrame('{"id":4,"ok":false,"error":{"reason":"type","field":"brightness"}}')).toEqual({
      kind: 'response',
      frame: { id: 4, ok: false, error: { reason: 'type', field: 'brightness' } },
    });
  });

  it('reads an event and gives it empty data when none is sent', () => {
    expect(parseDeviceFrame('{"event":"button"}')).toEqual({ kind: 'event', frame: { event: 'button', data: {} } });
  });

  it('classifies noise, non-frames and oversized lines instead of throwing', () => {
    expect(parseDeviceFrame('\u0000garbage{').kind === 'invalid' && parseDeviceFrame('\u0000garbage{')).toMatchObject({
      problem: 'invalid_json',
    });
    expect(parseDeviceFrame('{"id":-1,"ok":true}')).toMatchObject({ kind: 'invalid', problem: 'invalid_frame' });
    expect(parseDeviceFrame('[1,2]')).toMatchObject({ kind: 'invalid', problem: 'invalid_frame' });
    expect(parseDeviceFrame('null')).toMatchObject({ kind: 'invalid', problem: 'invalid_frame' });
    expect(parseDeviceFrame(`{"id":1,"ok":true,"result":"${'x'.repeat(100)}"}`, 64)).toMatchObject({
      kind: 'invalid',
      problem: 'oversized',
    });
  });
});

describe('parseRequestFrame', () => {
  it('reads hello and call requests, defaulting args to {}', () => {
    expect(parseRequestFrame('{"id":1,"op":"hello"}')).toEqual({ ok: true, frame: { id: 1, op: 'hello' } });
    expect(parseRequestFrame('{"id":2,"op":"call","tool":"get"}')).toEqual({
      ok: true,
      frame: { id: 2, op: 'call', tool: 'get', args: {} },
    });
  });

  it('keeps the id of a bad request so the device can answer it', () => {
    expect(parseRequestFrame('{"id":9,"op":"reboot"}')).toMatchObject({ ok: false, id: 9, problem: 'invalid_frame' });
  });

  it('reads the id a request starts with when the rest is too long or not JSON', () => {
    const long = `{"id":41,"op":"call","tool":"show","args":{"text":"${'x'.repeat(100)}"}}`;
    expect(parseRequestFrame(long, 64)).toMatchObject({ ok: false, id: 41, problem: 'oversized' });
    expect(parseRequestFrame('{"id":42,"op":"call","tool":')).toMatchObject({
      ok: false,
      id: 42,
      problem: 'invalid_json',
    });
    expect(parseRequestFrame('{"op":"call","id":43,')).toMatchObject({ ok: false, id: null, problem: 'invalid_json' });
  });
});

describe('leadingRequestId', () => {
  it('reads only an id that is the first key, a non-negative integer JavaScript counts exactly', () => {
    expect(leadingRequestId('{"id":12,"op":"hello"}')).toBe(12);
    expect(leadingRequestId(' {\t"id" : 0 }')).toBe(0);
    expect(leadingRequestId('{"id":9007199254740991,"op"')).toBe(9007199254740991);
    expect(leadingRequestId('{"id":9007199254740992,"op"')).toBeNull();
    expect(leadingRequestId('{"id":12345678901234567,"op"')).toBeNull();
    expect(leadingRequestId('{"op":"hello","id":3}')).toBeNull();
    expect(leadingRequestId('{"id":012,"op"')).toBeNull();
    expect(leadingRequestId('{"id":-1,"op"')).toBeNull();
    expect(leadingRequestId('{"id":1.5,"op"')).toBeNull();
    // Cut right after the digits: the number may go on, so it is not read.
    expect(leadingRequestId('{"id":12')).toBeNull();
  });
});

describe('encodeRequest', () => {
  it('writes the id as the first key of every request, so an overflowed device still has it', () => {
    expect(encodeRequest(7, { op: 'hello' })).toBe('{"id":7,"op":"hello"}\n');
    expect(encodeRequest(8, { op: 'call', tool: 'set', args: { on: true } })).toBe(
      '{"id":8,"op":"call","tool":"set","args":{"on":true}}\n',
    );
  });

  it('limits requests to what the hello states, and to 16 KiB for devices that state nothing', () => {
    expect(requestLimit({ maxFrameBytes: 128 })).toBe(128);
    expect(requestLimit({})).toBe(16 * 1024);
    expect(requestLimit({ maxFrameBytes: 1_000_000 })).toBe(16 * 1024);
  });
});

describe('helloResultSchema', () => {
  it('rejects a kind that cannot become part of a tool name', () => {
    const hello = { device: { id: 'x-1', kind: 'Lamp Two', model: 'm', firmware: 'f' }, tools: [] };
    expect(helloResultSchema.safeParse(hello).success).toBe(false);
  });

  it('takes maxFrameBytes when it leaves room for a hello request, and hellos without it', () => {
    const device = { id: 'x-1', kind: 'lamp', model: 'm', firmware: 'f' };
    expect(helloResultSchema.parse({ device, tools: [], maxFrameBytes: 128 }).maxFrameBytes).toBe(128);
    expect(helloResultSchema.parse({ device, tools: [] }).maxFrameBytes).toBeUndefined();
    expect(helloResultSchema.safeParse({ device, tools: [], maxFrameBytes: 63 }).success).toBe(false);
    expect(helloResultSchema.safeParse({ device, tools: [], maxFrameBytes: 100.5 }).success).toBe(false);
  });

  it('refuses argument names and choices that hold a control, bidi or zero-width character, which the model would read as they are', () => {
    const device = { id: 'x-1', kind: 'lamp', model: 'm', firmware: 'f' };
    const tool = (parameters: unknown) => ({ device, tools: [{ name: 'set', description: 'd', parameters }] });
    const issues = (parameters: unknown) => {
      const parsed = helloResultSchema.safeParse(tool(parameters));
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    expect(issues({ type: 'object', properties: { 'on\u001b[2J': { type: 'boolean' } } })).toEqual([
      'tools.0.parameters.properties.on\u001b[2J: holds a character that would act instead of being read (\\u001b)',
    ]);
    expect(issues({ type: 'object', required: ['on\u200b'] })).toEqual([
      'tools.0.parameters.required.0: holds a character that would act instead of being read (\\u200b)',
    ]);
    expect(issues({ type: 'string', enum: ['warm', 'cold\u202e'] })).toEqual([
      'tools.0.parameters.enum.1: holds a character that would act instead of being read (\\u202e)',
    ]);
    // Descriptions are shown as escapes instead (core/prompt/safe-tool-text.ts): they may hold anything.
    expect(issues({ type: 'object', description: 'line\nnext\u001b' })).toEqual([]);
  });
});

describe('encodeFrame', () => {
  it('writes one line even when strings hold newlines', () => {
    expect(encodeFrame({ event: 'note', data: { text: 'a\nb' } })).toBe('{"event":"note","data":{"text":"a\\nb"}}\n');
  });

  it('refuses a frame over the limit', () => {
    expect(() => encodeFrame({ id: 1, ok: true, result: 'x'.repeat(100) }, 64)).toThrow(RangeError);
  });
});
