import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonLines, REPO_ROOT, runCli } from '../../helpers/run-cli.ts';
import {
  startLoopbackModelServer,
  type LoopbackModelServer,
  type LoopbackReply,
  type RecordedRequest,
} from '../../helpers/loopback-model-server.ts';

const cli = join(REPO_ROOT, 'bin/home-agent.mjs');
const fixtures = join(REPO_ROOT, 'test/fixtures/streams');
const sse = { 'content-type': 'text/event-stream' };
const finalReply: LoopbackReply = {
  headers: sse,
  body: 'data: {"choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
};

/** A gpt-4o style reply holding one `multi_tool_use.parallel` call with these arguments. */
function wrapperReply(id: string, argumentsText: string): LoopbackReply {
  const call = {
    index: 0,
    id,
    type: 'function',
    function: { name: 'multi_tool_use.parallel', arguments: argumentsText },
  };
  return {
    headers: sse,
    body: [
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }] })}`,
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
      'data: [DONE]',
      '',
    ].join('\n\n'),
  };
}

interface ChatBody {
  parallel_tool_calls?: boolean;
  messages: { role: string; tool_call_id?: string; tool_calls?: { id: string; function: { name: string } }[] }[];
}

function bodyOf(request: RecordedRequest | undefined): ChatBody {
  return JSON.parse(request?.body ?? '{}') as ChatBody;
}

/** The fields of the CLI's JSON Lines events these tests read. */
const eventSchema = z.looseObject({
  type: z.string(),
  callId: z.string().optional(),
  ok: z.boolean().optional(),
  error: z.unknown().optional(),
  reason: z.string().optional(),
  toolCalls: z.unknown().optional(),
  calls: z.array(z.object({ callId: z.string(), name: z.string(), args: z.unknown() })).optional(),
});
type Event = z.infer<typeof eventSchema>;

describe.skipIf(!existsSync(cli))('home-agent ask --provider openai on the quirks of real models (end to end)', () => {
  let server: LoopbackModelServer;
  let dataDir: string;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
    dataDir = mkdtempSync(join(tmpdir(), 'home-agent-cli-quirks-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function ask(model: string): Promise<{ code: number | null; events: Event[]; stdout: string; stderr: string }> {
    const run = await runCli(
      [
        'ask',
        '--provider',
        'openai',
        '--base-url',
        `${server.url}/v1`,
        '--model',
        model,
        '--api-key-env',
        'HOME_AGENT_TEST_KEY',
        '--data-dir',
        dataDir,
        '--json',
        'show the temperature',
      ],
      { env: { HOME_AGENT_TEST_KEY: 'sk-cli-quirks', HOME_AGENT_NO_OLLAMA_PROBE: '1' }, timeoutMs: 60_000 },
    );
    return { ...run, events: z.array(eventSchema).parse(jsonLines(run.stdout)) };
  }

  it('a model that refuses parallel_tool_calls: one 400, one retry without it, and the next step never sends it', async () => {
    const refusal = readFileSync(join(fixtures, 'openai-parallel-tool-calls-refused.json'), 'utf8');
    const accepted: LoopbackReply[] = [
      { headers: sse, body: readFileSync(join(fixtures, 'openai-empty-arguments.txt')) },
      finalReply,
    ];
    // Like OpenAI for a reasoning model: every request that carries the parameter is refused.
    server.reply((request) =>
      bodyOf(request).parallel_tool_calls !== undefined
        ? { status: 400, headers: { 'content-type': 'application/json' }, body: refusal }
        : (accepted.shift() ?? { status: 500, body: 'unexpected request' }),
    );
    const run = await ask('reasoner-unknown-to-the-rule');
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests.map((request) => bodyOf(request).parallel_tool_calls)).toEqual([true, undefined, undefined]);
    const batch = run.events.find((event) => event.type === 'batch/start');
    expect(batch?.calls?.map((call) => call.callId)).toEqual(['call_e1', 'call_e2']);
    expect(run.events.filter((event) => event.type === 'message/assistant')).toHaveLength(2);
    expect(run.events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'done' });
  });

  it('multi_tool_use.parallel: the batch, the stored message and the results hold the unpacked calls, never the wrapper', async () => {
    server.reply({ headers: sse, body: readFileSync(join(fixtures, 'openai-parallel-wrapper.txt')) }, finalReply);
    const run = await ask('gpt-4o');
    expect(run.code, run.stderr).toBe(0);
    const wanted = [
      { id: 'call_wrap_0', name: 'output_send__chat', args: { text: 'Température: 21 °C 💡' } },
      { id: 'call_wrap_1', name: 'system_list_tools', args: {} },
      { id: 'call_wrap_2', name: 'output_list_channels', args: {} },
    ];
    const message = run.events.find((event) => event.type === 'message/assistant');
    expect(message?.toolCalls).toEqual(wanted);
    const batch = run.events.find((event) => event.type === 'batch/start');
    expect(batch?.calls?.map((call) => ({ id: call.callId, name: call.name, args: call.args }))).toEqual(wanted);
    const ends = run.events.filter((event) => event.type === 'tool/end');
    expect(ends.map((event) => [event.callId, event.ok])).toEqual(
      expect.arrayContaining([
        ['call_wrap_0', true],
        ['call_wrap_1', true],
        ['call_wrap_2', true],
      ]),
    );
    expect(ends).toHaveLength(3);
    expect(run.stdout).not.toContain('multi_tool_use');

    // The next request is built from the stored conversation: the unpacked calls, each answered once.
    const next = bodyOf(server.requests[1]);
    expect(server.requests[1]?.body).not.toContain('multi_tool_use');
    const assistant = next.messages.find((entry) => entry.role === 'assistant');
    expect(assistant?.tool_calls?.map((call) => [call.id, call.function.name])).toEqual(
      wanted.map((call) => [call.id, call.name]),
    );
    expect(next.messages.filter((entry) => entry.role === 'tool').map((entry) => entry.tool_call_id)).toEqual([
      'call_wrap_0',
      'call_wrap_1',
      'call_wrap_2',
    ]);
  });

  it('an entry whose parameters are not an object is answered invalid_json by itself; the others run', async () => {
    server.reply(
      wrapperReply(
        'call_w',
        JSON.stringify({
          tool_uses: [
            { recipient_name: 'functions.output_send__chat', parameters: 'hello' },
            { recipient_name: 'functions.output_list_channels', parameters: {} },
          ],
        }),
      ),
      finalReply,
    );
    const run = await ask('gpt-4o');
    expect(run.code, run.stderr).toBe(0);
    const ends = run.events.filter((event) => event.type === 'tool/end');
    const byId = new Map(ends.map((event) => [event.callId, event]));
    expect(ends).toHaveLength(2);
    expect(byId.get('call_w_0')).toMatchObject({ ok: false, error: { reason: 'invalid_json' } });
    expect(byId.get('call_w_1')).toMatchObject({ ok: true });
    const next = bodyOf(server.requests[1]);
    expect(next.messages.filter((entry) => entry.role === 'tool').map((entry) => entry.tool_call_id)).toEqual([
      'call_w_0',
      'call_w_1',
    ]);
  });

  it('a wrapper that cannot be read ends the turn saying why; nothing runs and nothing is stored under its name', async () => {
    server.reply(wrapperReply('call_bad', '{"tool_uses":[{"recipient_name":"output_list_channels","parameters":{}}]}'));
    const run = await ask('gpt-4o');
    expect(run.code).toBe(1);
    const end = run.events.at(-1);
    expect(end).toMatchObject({ type: 'turn/end', reason: 'error' });
    expect(end?.error).toContain('multi_tool_use.parallel (call call_bad) and the wrapper cannot be read');
    expect(end?.error).toContain("recipient_name 'output_list_channels' does not start with 'functions.'");
    expect(run.events.some((event) => event.type === 'tool/start' || event.type === 'message/assistant')).toBe(false);
    expect(server.requests).toHaveLength(1);
  });
});
