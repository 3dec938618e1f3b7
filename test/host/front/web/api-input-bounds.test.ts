import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  API_METHODS,
  apiContract,
  SETTING_KEYS,
  TOOL_ORDER_REST,
  type ApiMethod,
} from '../../../../host/contract/api-contract.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TOKEN = 'bounds-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
/** Far past every bound of the contract, well inside the 256 KiB body limit. */
const OVERSIZED = 'x'.repeat(200_000);
/** As long, and a web address: a field that takes only addresses must refuse it for its length. */
const OVERSIZED_URL = `http://127.0.0.1/${'x'.repeat(200_000)}`;
/** The most a refusal may weigh: it names the field and the bound, and quotes no more than a few words. */
const MAX_REFUSAL_BYTES = 2_000;

const identity = { id: 'lamp-1', kind: 'lamp', model: 'L1', firmware: '1.0' };

/**
 * A valid input for every method of the contract, by hand. An input carries the fields of each shape
 * the contract has had (`approval/answer` names its question by `callId`, later `approvalId`): a
 * field a method does not know is dropped, never refused.
 */
const VALID_INPUTS: Record<ApiMethod, Record<string, unknown>> = {
  'app/info': {},
  'conversations/list': {},
  'conversations/create': {},
  'conversations/rename': { conversationId: 'c1', title: 'Kitchen' },
  'conversations/delete': { conversationId: 'c1' },
  'conversations/search': { query: 'lamp' },
  'conversations/events': { conversationId: 'c1' },
  'chat/send': { text: 'hi' },
  'approval/answer': { callId: 'k1', approvalId: 'a1', approved: true },
  'chat/abort': { conversationId: 'c1' },
  'elicitation/answer': { id: 'q1', action: 'accept', content: { room: 'hall' } },
  'elicitations/list': {},
  'devices/list': {},
  'devices/scan': {},
  'devices/probe': { path: '/dev/ttyUSB0' },
  'devices/pair': { path: '/dev/ttyUSB0', identity },
  'devices/grant': { deviceId: 'lamp-1', all: true },
  'devices/revoke': { deviceId: 'lamp-1', all: true },
  'devices/rename': { deviceId: 'lamp-1', alias: 'Lamp' },
  'devices/room': { deviceId: 'lamp-1', room: 'Kitchen' },
  'devices/pin': { deviceId: 'lock-1', action: 'set', needsPin: true },
  'devices/pin-actions': { deviceId: 'lock-1' },
  'pin/status': {},
  'pin/set': { pin: '2468', currentPin: '1357' },
  'pin/remove': { currentPin: '2468' },
  'devices/forget': { deviceId: 'lamp-1' },
  'devices/trust': { deviceId: 'lamp-1', identity },
  'approvals/list': {},
  'approvals/revoke': { tool: 'lamp__set' },
  'models/list': {},
  'models/test': {},
  'models/forget-windows': { baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' },
  'plugins/list': {},
  'plugins/set-enabled': { name: 'system', enabled: true },
  'plugins/set-trusted': { name: 'mcp-everything', trusted: true },
  'plugins/sign-in': { name: 'mcp-everything' },
  'plugins/sign-out': { name: 'mcp-everything' },
  'secrets/status': {},
  'secrets/set-api-key': { provider: 'openai', apiKey: 'sk-1' },
  'secrets/delete-api-key': { provider: 'openai' },
  'secrets/set-way-in-secret': { name: 'mqttPassword', value: 'broker-password' },
  'secrets/delete-way-in-secret': { name: 'mqttPassword' },
  'settings/get': {},
  'settings/set': { key: 'model', value: 'llama3.1' },
};

type Path = (string | number)[];

/** Every place a text goes in a schema's input, optional ones included (array items as their first), and an oversized value for it. */
function textPaths(schema: z.ZodType, path: Path = []): { path: Path; oversized: string }[] {
  const { def } = schema as unknown as { def: Record<string, unknown> & { type: string } };
  switch (def.type) {
    case 'string':
      return [{ path, oversized: def.format === 'url' ? OVERSIZED_URL : OVERSIZED }];
    case 'enum':
      return [{ path, oversized: OVERSIZED }];
    case 'optional':
    case 'nullable':
    case 'default':
      return textPaths(def.innerType as z.ZodType, path);
    case 'array':
      return textPaths(def.element as z.ZodType, [...path, 0]);
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
        textPaths(field, [...path, key]),
      );
    default:
      return [];
  }
}

function withValue(input: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> {
  const copy = structuredClone(input);
  let node: Record<string | number, unknown> = copy;
  for (const [position, key] of path.entries()) {
    if (position === path.length - 1) node[key] = value;
    else {
      node[key] ??= typeof path[position + 1] === 'number' ? [] : {};
      node = node[key] as Record<string | number, unknown>;
    }
  }
  return copy;
}

async function call(url: string, method: string, input: unknown): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}api/${method}`, { method: 'POST', headers: auth, body: JSON.stringify(input) });
  return { status: response.status, body: await response.text() };
}

describe('every text the API takes is bounded, and no refusal echoes it', () => {
  it('has a valid input for every method of the contract', () => {
    expect(Object.keys(VALID_INPUTS).sort()).toEqual([...API_METHODS].sort());
    for (const method of API_METHODS)
      expect(apiContract[method].input.safeParse(VALID_INPUTS[method]).success, method).toBe(true);
  });

  it('refuses a 200,000-character value in every text field of every method with a small 400 naming it', async () => {
    const { server } = await serveTestHost(cleanups, { dataDirPrefix: 'home-agent-bounds-', token: TOKEN });
    const checked: string[] = [];
    for (const method of API_METHODS) {
      for (const { path, oversized } of textPaths(apiContract[method].input)) {
        const where = `${method} ${path.join('.')}`;
        const { status, body } = await call(server.url, method, withValue(VALID_INPUTS[method], path, oversized));
        expect(status, where).toBe(400);
        expect(body.length, where).toBeLessThan(MAX_REFUSAL_BYTES);
        expect(body, where).toContain(path.join('.'));
        checked.push(where);
      }
    }
    // The walk reaches ids, names, paths and identities (a count that only grows as the contract does).
    expect(checked).toEqual(
      expect.arrayContaining([
        'conversations/rename conversationId',
        'conversations/delete conversationId',
        'devices/pair identity.id',
        'devices/scan paths.0',
        'devices/grant actions.0',
        'models/list baseUrl',
        'models/test apiKeyEnv',
      ]),
    );
  }, 60_000);

  it('refuses an oversized value of every setting, and an unknown method, without echoing them', async () => {
    const { server } = await serveTestHost(cleanups, { dataDirPrefix: 'home-agent-bounds-', token: TOKEN });
    for (const key of SETTING_KEYS) {
      const value =
        key === 'toolOrder'
          ? ['y'.repeat(100_000), 'y'.repeat(100_000), TOOL_ORDER_REST]
          : key === 'baseUrl'
            ? OVERSIZED_URL
            : OVERSIZED;
      const { status, body } = await call(server.url, 'settings/set', { key, value });
      expect(status, key).toBe(400);
      expect(body.length, key).toBeLessThan(MAX_REFUSAL_BYTES);
    }
    const unknown = await call(server.url, `no-such-method-${'m'.repeat(10_000)}`, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.length).toBeLessThan(MAX_REFUSAL_BYTES);
  }, 60_000);
});
