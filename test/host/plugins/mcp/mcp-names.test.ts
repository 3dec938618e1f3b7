import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mcpToolName } from '../../../../host/plugins/mcp/mcp-tool-name.ts';
import { resolveToolNames } from '../../../../host/plugins/mcp/resolve-tool-names.ts';
import { probeEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
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

const sha6 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 6);

describe('mcpToolName', () => {
  it('is mcp__SERVER__TOOL with every character outside [A-Za-z0-9_-] made _', () => {
    expect(mcpToolName({ server: 'everything', tool: 'get-sum' })).toBe('mcp__everything__get-sum');
    expect(mcpToolName({ server: 'ha', tool: 'light.turn on/ü😀' })).toBe('mcp__ha__light_turn_on___');
  });

  it('cuts a name over 64 characters to 57, then _ and 6 hex characters of the hash of the whole name', () => {
    const tool = `${'x'.repeat(60)}-a`;
    const name = mcpToolName({ server: 'home', tool });
    // Hand-built: 'mcp__home__' is 11 characters, so 46 x's fill the 57.
    expect(name).toBe(`mcp__home__${'x'.repeat(46)}_${sha6(`mcp__home__${tool}`)}`);
    expect(name).toHaveLength(64);
    expect(mcpToolName({ server: 'home', tool: `${'x'.repeat(60)}-b` })).not.toBe(name);
    const exactly = 'y'.repeat(64 - 'mcp__home__'.length);
    expect(mcpToolName({ server: 'home', tool: exactly })).toBe(`mcp__home__${exactly}`);
  });
});

describe('resolveToolNames', () => {
  it('leaves out a tool whose name is taken, naming both, and offers the rest', () => {
    const resolved = resolveToolNames({
      servers: [
        {
          plugin: 'mcp-b',
          tools: [
            { original: 'a.b', name: 'mcp__b__a_b' },
            { original: 'a_b', name: 'mcp__b__a_b' },
            { original: 'ok', name: 'mcp__b__ok' },
          ],
        },
        { plugin: 'mcp-a', tools: [{ original: 'set', name: 'lamp__set' }] },
      ],
      reserved: new Map([['lamp__set', 'devices']]),
    });
    expect(resolved.offered).toEqual(
      new Map([
        ['mcp-a', new Set()],
        ['mcp-b', new Set(['a.b', 'ok'])],
      ]),
    );
    expect(resolved.problems).toEqual(
      new Map([
        ['mcp-a', ["'set' of mcp-a is left out: its name lamp__set is also the name of a tool of the plugin devices"]],
        ['mcp-b', ["'a_b' of mcp-b is left out: its name mcp__b__a_b is also the name of 'a.b' of mcp-b"]],
      ]),
    );
  });
});

describe('names of a real server’s tools', () => {
  it('are checked before any is offered: a collision leaves one tool out (the turn still runs), with an error naming both', async () => {
    const dir = mcpDataDir(cleanups);
    const long = `${'l'.repeat(70)}`;
    const { file } = probeDeclarations(dir, [probeTool('a.b'), probeTool('a_b'), probeTool(long)]);
    const { host } = await startMcpHost(cleanups, {
      servers: { probe: probeEntry(file) },
      approvalPolicy: 'allow',
      replies: [{ toolCalls: [{ name: 'mcp__probe__a_b', args: {} }] }, { text: 'done' }],
    });
    const { plugins } = await host.handlers['plugins/list']({});
    const probe = plugins.find((plugin) => plugin.name === 'mcp-probe');
    const cut = `mcp__probe__${'l'.repeat(45)}_${sha6(`mcp__probe__${long}`)}`;
    expect(probe?.tools).toEqual(['mcp__probe__a_b', cut].sort());
    expect(probe?.warnings).toEqual([
      "'a_b' of mcp-probe is left out: its name mcp__probe__a_b is also the name of 'a.b' of mcp-probe",
    ]);
    // The kept one reaches the server under its own name; the cut one too.
    expect(await callTool(host, 'mcp__probe__a_b', {})).toEqual({ ok: true, value: 'ran a.b' });
    expect(await callTool(host, cut, {})).toEqual({ ok: true, value: `ran ${long}` });
    // A turn is assembled with no duplicate name (before, a duplicate failed every turn at assembly).
    const events = await runTurn(host);
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'done' });
  });
});
