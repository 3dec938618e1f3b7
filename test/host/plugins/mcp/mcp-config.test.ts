import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedModel } from '../../../../core/models/scripted/scripted-model.ts';
import { McpConfigError, readMcpConfig } from '../../../../host/plugins/mcp/mcp-config.ts';
import { expandVariables, literalSecretsOf } from '../../../../host/plugins/mcp/expand-variables.ts';
import { probeEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  connectionOf,
  mcpDataDir,
  probeDeclarations,
  probeTool,
  runTurn,
  startMcpHost,
} from '../../../helpers/mcp/mcp-host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Writes `content` (an object as JSON, or raw text) to a file in a temp folder; its path. */
function configFile(content: unknown): string {
  const file = path.join(mcpDataDir(cleanups), 'mcp.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('readMcpConfig', () => {
  it('reads the shape Claude Desktop and Cursor use: stdio servers and Streamable HTTP servers', () => {
    const file = configFile({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'some-server'], env: { ROOT: '/home' } },
        'home-assistant': {
          url: 'http://homeassistant.local:8123/api/mcp',
          headers: { Authorization: 'Bearer ${HA_TOKEN}' },
        },
      },
    });
    expect(readMcpConfig({ file, required: true })).toEqual({
      file,
      problems: [],
      servers: [
        {
          name: 'files',
          pluginName: 'mcp-files',
          transport: { kind: 'stdio', command: 'npx', args: ['-y', 'some-server'], env: { ROOT: '/home' } },
        },
        {
          name: 'home-assistant',
          pluginName: 'mcp-home-assistant',
          transport: {
            kind: 'http',
            url: 'http://homeassistant.local:8123/api/mcp',
            headers: { Authorization: 'Bearer ${HA_TOKEN}' },
          },
        },
      ],
    });
  });

  it('refuses a server whose name is not 1 to 40 letters, digits or -, saying why, and keeps the others', () => {
    const file = configFile({
      mcpServers: {
        good: { command: 'a' },
        two__parts: { command: 'a' },
        'with space': { command: 'a' },
        ['x'.repeat(41)]: { command: 'a' },
        both: { command: 'a', url: 'http://127.0.0.1/mcp' },
        old: { type: 'sse', url: 'http://127.0.0.1/sse' },
        nothing: {},
        ftp: { url: 'ftp://example.com' },
      },
    });
    const config = readMcpConfig({ file, required: false });
    expect(config.servers.map((server) => server.name)).toEqual(['good']);
    expect(config.problems).toEqual([
      `${file}: the server "two__parts" was refused: a name has 1 to 40 letters, digits or '-' (it becomes the plugin mcp-NAME and part of every tool name)`,
      `${file}: the server "with space" was refused: a name has 1 to 40 letters, digits or '-' (it becomes the plugin mcp-NAME and part of every tool name)`,
      `${file}: the server "${'x'.repeat(41)}" was refused: a name has 1 to 40 letters, digits or '-' (it becomes the plugin mcp-NAME and part of every tool name)`,
      `${file}: the server "both" was refused: give "command" (a program to start) or "url" (Streamable HTTP), not both`,
      `${file}: the server "old" was refused: the old HTTP+SSE transport is not supported; give the server’s Streamable HTTP address instead`,
      `${file}: the server "nothing" was refused: command is missing: give the program to start`,
      `${file}: the server "ftp" was refused: url must be an http:// or https:// address`,
    ]);
  });

  it('a file named on the command line must be readable; mcp.json in the data folder may be missing or broken', () => {
    const missing = path.join(mcpDataDir(cleanups), 'nope.json');
    expect(() => readMcpConfig({ file: missing, required: true })).toThrow(McpConfigError);
    expect(readMcpConfig({ file: missing, required: false })).toEqual({ servers: [], problems: [] });
    const broken = configFile('{"mcpServers": {');
    expect(() => readMcpConfig({ file: broken, required: true })).toThrow(/could not be read as JSON/);
    expect(readMcpConfig({ file: broken, required: false }).problems).toEqual([
      expect.stringMatching(/could not be read as JSON .*no MCP server was started from it$/),
    ]);
    // V8 quotes a piece of the text in some JSON errors: a secret written there must not be shown.
    const unquoted = configFile('{"mcpServers": {"a": {"command": "x", "env": {"API_KEY": sk-live-0123456789}}}}');
    const [problem] = readMcpConfig({ file: unquoted, required: false }).problems;
    expect(problem).toBe(
      `${unquoted}: could not be read as JSON (Unexpected token 's' (where JSON was expected)); no MCP server was started from it`,
    );
    const wrong = configFile({ servers: {} });
    expect(readMcpConfig({ file: wrong, required: false }).problems).toEqual([
      `${wrong}: mcpServers must be an object of servers; no MCP server was started from it`,
    ]);
  });
});

describe('${VAR} in env and headers', () => {
  const http = (headers: Record<string, string>) => ({ kind: 'http' as const, url: 'http://h/mcp', headers });

  it('reads each variable from the environment; the values are secrets', () => {
    expect(
      expandVariables(http({ Authorization: 'Bearer ${HA_TOKEN}', 'X-Home': 'main' }), { HA_TOKEN: 'tok-123' }),
    ).toEqual({
      ok: true,
      transport: http({ Authorization: 'Bearer tok-123', 'X-Home': 'main' }),
      secrets: ['tok-123', 'Bearer tok-123'],
    });
  });

  it('a variable that is not set is a problem naming the key and the variable, never a value', () => {
    expect(expandVariables(http({ Authorization: 'Bearer ${HA_TOKEN}' }), {})).toEqual({
      ok: false,
      problem:
        'headers.Authorization reads ${HA_TOKEN}, which is not set in the environment: set it, then start the server again',
    });
    expect(expandVariables(http({ A: '${not a name}' }), {})).toEqual({
      ok: false,
      problem: 'headers.A: ${not a name} is not the name of an environment variable',
    });
  });

  it('flags secrets written into the config itself (names only)', () => {
    expect(literalSecretsOf(http({ Authorization: 'Bearer abc123', 'X-Home': 'main' }))).toEqual([
      'headers.Authorization',
    ]);
    expect(literalSecretsOf(http({ Authorization: 'Bearer ${HA_TOKEN}' }))).toEqual([]);
    expect(literalSecretsOf({ kind: 'stdio', command: 'x', args: [], env: { API_KEY: 'sk-1', DEBUG: '1' } })).toEqual([
      'env.API_KEY',
    ]);
  });
});

describe('secrets of an MCP config', () => {
  it('reach the server, and are never logged, journaled or sent to a front end', async () => {
    const secret = 'hunter2-very-secret';
    const dir = mcpDataDir(cleanups);
    const { file } = probeDeclarations(
      dir,
      [
        probeTool('env', {
          // A server may say its own token anywhere, its tools' declarations included.
          description: `reads the environment (it runs with ${secret})`,
          inputSchema: {
            type: 'object',
            properties: {
              names: { type: 'array', items: { type: 'string' }, description: `e.g. the one holding ${secret}` },
            },
          },
        }),
        // …or in a name a call must say: that tool cannot be offered.
        probeTool(`leak-${secret}`),
      ],
      {
        stderrAtStart: `starting with token ${secret}`,
      },
    );
    const { host, log } = await startMcpHost(cleanups, {
      dataDir: dir,
      servers: { probe: probeEntry(file, { PROBE_TOKEN: '${SECRET_TOKEN}', API_KEY: 'written-in-the-file' }) },
      environment: { SECRET_TOKEN: secret },
      approvalPolicy: 'allow',
      replies: [{ toolCalls: [{ name: 'mcp__probe__env', args: { names: ['PROBE_TOKEN'] } }] }, { text: 'done' }],
    });
    // The server got it (it answers with its own environment)…
    const connection = connectionOf(host, 'mcp-probe');
    const answer = await connection.call({
      tool: 'env',
      args: { names: ['PROBE_TOKEN'] },
      signal: AbortSignal.timeout(10_000),
      onSent: () => {},
    });
    expect(answer.content).toEqual([{ type: 'text', text: JSON.stringify({ PROBE_TOKEN: secret }) }]);
    // …but what is shown, stored or logged has it replaced.
    const { plugins } = await host.handlers['plugins/list']({});
    const shown = JSON.stringify(plugins);
    expect(shown).toContain('starting with token ***');
    expect(shown).toContain('env.API_KEY holds a secret written into the config');
    expect(plugins.find((plugin) => plugin.name === 'mcp-probe')).toMatchObject({
      tools: ['mcp__probe__env'],
      warnings: expect.arrayContaining([
        'mcp-probe: the tool "leak-***" is left out: a name a call must say (its own, or one of its arguments) holds a secret of its config',
      ]),
    });
    expect(shown).not.toContain(secret);
    expect(shown).not.toContain('written-in-the-file');
    const events = await runTurn(host);
    expect(events.find((event) => event.type === 'tool/end')).toMatchObject({
      ok: true,
      result: '{"PROBE_TOKEN":"***"}',
    });
    const journal = JSON.stringify([
      host.store.loadEvents(events[0]!.conversationId),
      host.store.loadMessages(events[0]!.conversationId),
    ]);
    expect(journal).not.toContain(secret);
    expect(JSON.stringify(log)).not.toContain(secret);
    // …nor what the model was sent, nor anything in the store's files (the tools as last listed, request parts).
    const model = (await host.models.current()) as ScriptedModel;
    const env = model.requests.at(-1)?.tools.find((tool) => tool.name === 'mcp__probe__env');
    expect(env?.description).toBe('reads the environment (it runs with ***)');
    expect(JSON.stringify(model.requests)).not.toContain(secret);
    const stored = readdirSync(dir)
      .filter((name) => name.startsWith('home-agent.db'))
      .map((name) => readFileSync(path.join(dir, name)));
    expect(stored.length).toBeGreaterThan(0);
    for (const bytes of stored) expect(bytes.includes(secret)).toBe(false);
    expect(await callTool(host, 'mcp__probe__env', { names: ['PROBE_TOKEN'] })).toEqual({
      ok: true,
      value: '{"PROBE_TOKEN":"***"}',
    });
  });

  it('a variable that is not set fails the server with the reason, and it is not started again', async () => {
    const dir = mcpDataDir(cleanups);
    const { file } = probeDeclarations(dir, []);
    const { host } = await startMcpHost(cleanups, {
      servers: { probe: probeEntry(file, { PROBE_TOKEN: '${NOT_SET}' }) },
    });
    const { plugins } = await host.handlers['plugins/list']({});
    expect(plugins.find((plugin) => plugin.name === 'mcp-probe')).toMatchObject({
      status: 'failed',
      reason:
        'env.PROBE_TOKEN reads ${NOT_SET}, which is not set in the environment: set it, then start the server again',
    });
  });

  it('config problems reach plugins/list and the log; --mcp-config replaces mcp.json', async () => {
    const dataDir = mcpDataDir(cleanups);
    writeFileSync(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { fromfolder: { command: 'x' } } }));
    const other = path.join(mcpDataDir(cleanups), 'run.json');
    const { host, log } = await startMcpHost(cleanups, {
      dataDir,
      configFile: other,
      servers: { 'bad name': { command: 'x' } },
    });
    const listed = await host.handlers['plugins/list']({});
    expect(listed.plugins.some((plugin) => plugin.name === 'mcp-fromfolder')).toBe(false);
    expect(listed.problems).toEqual([expect.stringContaining('the server "bad name" was refused')]);
    expect(log).toEqual(expect.arrayContaining([expect.stringContaining('the server "bad name" was refused')]));
  });
});
