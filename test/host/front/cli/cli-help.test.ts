import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/run-cli.ts';
import { closestWord } from '../../../../host/front/cli/closest-word.ts';

const COMMANDS = ['ask', 'serve', 'sim', 'models', 'devices'];

describe('home-agent --help', () => {
  it('lists every command with what it does, and says where each one’s help is', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const name of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${name} +[a-z]`, 'm'));
    expect(result.stdout).toContain('home-agent <command> --help');
  });

  // One CLI start per command, one after another: a loaded machine took over 20 s for them all.
  it('gives every command its own help: usage, a description, options with descriptions, examples', async () => {
    for (const name of COMMANDS) {
      const result = await runCli([name, '--help']);
      expect(result.code, name).toBe(0);
      expect(result.stdout, name).toMatch(new RegExp(`^home-agent ${name} — `));
      for (const section of ['Usage:', 'Options:', 'Examples:'])
        expect(result.stdout, name).toContain(`\n${section}\n`);
      // Every option line says what the option does.
      const options = result.stdout.split('\nOptions:\n')[1]!.split('\n\n')[0]!.split('\n');
      for (const line of options.filter((entry) => /^ {2}-/.test(entry) && !/^ {2}\S.* {2,}\S/.test(entry)))
        expect(options[options.indexOf(line) + 1], `${name}: ${line}`).toMatch(/^ {20,}\S/);
    }
    expect((await runCli(['help', 'devices'])).stdout).toMatch(/^home-agent devices — /);
  }, 60_000);

  it('documents ask’s device flag with its options, and every setting’s flag', async () => {
    const { stdout } = await runCli(['ask', '-h']);
    expect(stdout).toContain('--device PATH[,profile=NAME|FILE][,unit=N][,baud=B][,parity=P][,stopbits=S]');
    for (const flag of [
      '--provider',
      '--model',
      '--base-url',
      '--api-key-env',
      '--persona',
      '--tool-order',
      '--max-steps',
      '--tool-timeout-ms',
      '--concurrency-cap',
      '--sim',
      '--sim-latency-ms',
      '--data-dir',
      '--script',
      '--conversation',
      '--approve-all',
      '--json',
    ])
      expect(stdout).toContain(`  ${flag}`);
  });
});

describe('one placeholder per flag', () => {
  it('names what a flag takes the same way in every command’s help', async () => {
    const takes = new Map<string, Map<string, string>>();
    for (const name of ['ask', 'serve', 'mcp', 'devices', 'bridge']) {
      const { stdout } = await runCli([name, '--help']);
      for (const [, flag, value] of stdout.matchAll(/^ {2}(--[a-z-]+) ([A-Z][A-Z_]*|'<[^>]+>'|[a-z|]+)(?= |$)/gm)) {
        const seen = takes.get(flag!) ?? new Map<string, string>();
        seen.set(value!, name);
        takes.set(flag!, seen);
      }
    }
    const differing = [...takes]
      .filter(([, values]) => values.size > 1)
      .map(([flag, values]) => `${flag}: ${[...values.keys()].join(' / ')}`);
    expect(differing).toEqual([]);
    // The broker's address is a URL wherever a command takes it (ask and serve said TEXT).
    expect([...(takes.get('--mqtt')?.keys() ?? [])]).toEqual(['URL']);
  }, 60_000);
});

describe('a wrong command line', () => {
  it('suggests the command meant by a typo, without printing every command’s usage', async () => {
    const result = await runCli(['aks', '--sim', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'aks'. Did you mean ask?");
    expect(result.stderr).not.toContain('Usage:');
  });

  it('suggests the option meant by a typo and prints only that command’s usage', async () => {
    const result = await runCli(['ask', '--provdier', 'demo', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('home-agent ask: unknown option --provdier. Did you mean --provider?');
    expect(result.stderr).toContain('Usage:\n  home-agent ask [options] "<request>"');
    expect(result.stderr).toContain('home-agent ask --help');
    expect(result.stderr).not.toContain('home-agent serve');
    expect(result.stderr).not.toMatch(/To specify a positional argument/);
    const sim = await runCli(['sim', '--latncy-ms', '5']);
    expect(sim.code).toBe(2);
    expect(sim.stderr).toContain('unknown option --latncy-ms. Did you mean --latency-ms?');
  });

  it('says a flag needs a value in words', async () => {
    const result = await runCli(['ask', 'hi', '--model']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('home-agent ask: --model needs a value.');
  });

  it('prints no usage after a failure that is not the command line’s', async () => {
    // A folder of its own: a shared fixed path would carry another run's store (of another schema) along.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-no-usage-'));
    const result = await runCli(['ask', '--provider', 'openai', '--data-dir', dataDir, 'hi']);
    rmSync(dataDir, { recursive: true, force: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('needs --model M');
    expect(result.stderr).not.toContain('Usage:');
  });
});

describe('closestWord', () => {
  it('finds near misses (a swap counts as one edit) and nothing for words far away', () => {
    expect(closestWord('--provdier', ['--provider', '--model'])).toBe('--provider');
    expect(closestWord('aks', ['ask', 'serve'])).toBe('ask');
    expect(closestWord('lsit', ['list', 'scan'])).toBe('list');
    expect(closestWord('--xyz', ['--provider', '--model'])).toBeUndefined();
  });
});
