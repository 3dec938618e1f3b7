import { describe, expect, it } from 'vitest';
import { judgeRequest } from '../../../../devices/mqtt/bridged/judge-request.ts';
import { ReplayWindow } from '../../../../devices/mqtt/bridged/replay-window.ts';
import { signRequest } from '../../../../devices/mqtt/bridged/signed-messages.ts';
import type { RequestFrame } from '../../../../devices/protocol/frame-schema.ts';
import type { DeviceGrant } from '../../../../devices/links/device-grant.ts';

const host = '0123456789abcdef';
const key = Buffer.alloc(32, 1);
const replyTopic = `home-agent/cellar/reply/${host}`;
const correlation = Buffer.from('17');
const NOW = 1_700_000_000_000;

function judge(options: {
  frame?: RequestFrame;
  signedWith?: Buffer;
  at?: number;
  payload?: string;
  responseTopic?: string;
  grant?: DeviceGrant;
  window?: ReplayWindow;
  keys?: Record<string, Buffer>;
}) {
  const message = signRequest({
    key: options.signedWith ?? key,
    route: { bridge: 'cellar', device: 'lamp-1', host },
    reply: { topic: replyTopic, correlation: correlation.toString('base64url') },
    frame: options.frame ?? { id: 17, op: 'call', tool: 'set', args: { on: true } },
    now: options.at ?? NOW,
  });
  return judgeRequest({
    prefix: 'home-agent',
    bridge: 'cellar',
    device: 'lamp-1',
    payload: options.payload ?? JSON.stringify(message),
    responseTopic: options.responseTopic ?? replyTopic,
    correlation,
    maxBytes: 262_144,
    keyOf: (name) => (options.keys ?? { [host]: key })[name],
    grantOf: () => options.grant,
    window: options.window ?? new ReplayWindow({ now: () => NOW }),
  });
}

describe('judgeRequest', () => {
  it('runs a request a paired host signed for a granted action', () => {
    const judged = judge({ grant: ['set'] });
    expect(judged).toMatchObject({ answer: true, id: 17, frame: { op: 'call', tool: 'set', args: { on: true } } });
    expect(judged.answer && judged.refusal).toBeUndefined();
  });

  it('answers hello without a grant (who the device is), and refuses a call nothing granted', () => {
    expect(judge({ frame: { id: 1, op: 'hello' } })).toMatchObject({ answer: true, frame: { op: 'hello' } });
    expect(judge({})).toMatchObject({
      answer: true,
      refusal: { reason: 'unauthorized', detail: expect.stringContaining('not granted') },
    });
    expect(judge({ grant: ['get'] })).toMatchObject({ answer: true, refusal: { reason: 'unauthorized' } });
    expect(judge({ grant: 'all' })).toMatchObject({ answer: true, frame: { tool: 'set' } });
  });

  it('does not answer a host it is not paired with, or a request not signed with the host key', () => {
    expect(judge({ keys: {} })).toMatchObject({ answer: false, why: 'unpaired' });
    expect(judge({ signedWith: Buffer.alloc(32, 2), grant: 'all' })).toMatchObject({ answer: false, why: 'forged' });
  });

  it('does not answer what is no request, or a request that names another response topic', () => {
    expect(judge({ payload: 'on' })).toMatchObject({ answer: false, why: 'malformed' });
    expect(judge({ payload: '{"host":"x"}' })).toMatchObject({ answer: false, why: 'malformed' });
    expect(judge({ responseTopic: 'home-agent/attic/reply/x', grant: 'all' })).toMatchObject({
      answer: false,
      why: 'malformed',
    });
  });

  it('refuses the same signed request a second time (a replay), and a stale one', () => {
    const window = new ReplayWindow({ now: () => NOW });
    const message = signRequest({
      key,
      route: { bridge: 'cellar', device: 'lamp-1', host },
      reply: { topic: replyTopic, correlation: correlation.toString('base64url') },
      frame: { id: 17, op: 'call', tool: 'set', args: { on: true } },
      now: NOW,
    });
    const payload = JSON.stringify(message);
    expect(judge({ payload, window, grant: 'all' })).toMatchObject({ answer: true, frame: { tool: 'set' } });
    expect(judge({ payload, window, grant: 'all' })).toMatchObject({
      answer: true,
      refusal: { reason: 'unauthorized', detail: expect.stringContaining('replay') },
    });
    expect(judge({ at: NOW - 60_000, grant: 'all' })).toMatchObject({
      answer: true,
      refusal: { reason: 'unauthorized', detail: expect.stringContaining('60 s behind') },
    });
  });
});
