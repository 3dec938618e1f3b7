import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../devices/protocol/encode-frame.ts';
import { helloResultSchema } from '../../../devices/protocol/frame-schema.ts';
import { parseDeviceFrame } from '../../../devices/protocol/parse-device-frame.ts';
import { parseRequestFrame } from '../../../devices/protocol/parse-request-frame.ts';

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
});

describe('helloResultSchema', () => {
  it('rejects a kind that cannot become part of a tool name', () => {
    const hello = { device: { id: 'x-1', kind: 'Lamp Two', model: 'm', firmware: 'f' }, tools: [] };
    expect(helloResultSchema.safeParse(hello).success).toBe(false);
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
