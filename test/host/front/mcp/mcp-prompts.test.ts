import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { connectOverStdio, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SLOW = 120_000;

/** `home-agent mcp --sim` (and an ungranted lamp-9) with two saved sequences: one reads the lamp it switches from its input, one takes none. */
async function homeWithSequences(): Promise<ConnectedClient> {
  const data = tempDataDir('home-agent-mcp-prompts-');
  cleanups.push(() => data.remove());
  // A paired lamp nobody granted anything: never offered.
  const paired = await startSimProcess({ kinds: ['lamp'], ids: ['lamp-9'] });
  cleanups.push(() => paired.stop());
  const pairing = await runCli(['devices', 'pair', paired.devices[0]!.path, '--yes', '--data-dir', data.dir]);
  expect(pairing.code, pairing.stderr).toBe(0);
  const home = await connectOverStdio({ args: ['--sim', '--sim-latency-ms', '0', '--data-dir', data.dir] });
  cleanups.push(() => home.close());
  const saved = await home.call('seq_save', {
    name: 'evening',
    description: 'Switch a lamp on for the evening, at a brightness.',
    groups: [
      {
        id: 'g1',
        calls: [
          {
            tool: 'lamp__set',
            args: { device_id: { $slot: 'input.lamp' }, on: true, brightness: { $slot: 'input.level' } },
          },
        ],
      },
    ],
  });
  expect(saved.isError, JSON.stringify(saved.content)).toBeFalsy();
  const plain = await home.call('seq_save', {
    name: 'all_off',
    description: 'Every lamp off.',
    groups: [
      {
        id: 'g1',
        calls: [
          { tool: 'lamp__set', args: { device_id: 'lamp-1', on: false } },
          { tool: 'lamp__set', args: { device_id: 'lamp-2', on: false } },
        ],
      },
    ],
  });
  expect(plain.isError, JSON.stringify(plain.content)).toBeFalsy();
  return home;
}

describe('home-agent mcp serves the saved sequences as prompts', () => {
  it(
    'lists each with its description and the input fields its calls read, and gets one as a message to run it by seq_run',
    async () => {
      const home = await homeWithSequences();
      expect((await home.client.listPrompts()).prompts).toEqual([
        { name: 'all_off', description: 'Every lamp off.', arguments: [] },
        {
          name: 'evening',
          description: 'Switch a lamp on for the evening, at a brightness.',
          arguments: [
            { name: 'lamp', description: 'The device (its id) for input.lamp.', required: false },
            { name: 'level', description: 'input.level of the sequence.', required: false },
          ],
        },
      ]);
      expect(await home.client.getPrompt({ name: 'evening', arguments: { lamp: 'lamp-2', other: 'x' } })).toEqual({
        description: 'Switch a lamp on for the evening, at a brightness.',
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: 'Run my home\'s saved sequence "evening" with input {"lamp":"lamp-2"}: call the tool seq_run with name "evening" and that input, then tell me its report.',
            },
          },
        ],
      });
      await expect(home.client.getPrompt({ name: 'morning' })).rejects.toThrow(/No prompt named morning/);
    },
    SLOW,
  );

  it(
    'completes a prompt argument that names a device with the devices the session may use, and nothing else',
    async () => {
      const home = await homeWithSequences();
      const complete = async (name: string, argument: string, value: string) =>
        (await home.client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } }))
          .completion.values;
      expect(await complete('evening', 'lamp', 'lamp')).toEqual(['lamp-1', 'lamp-2']);
      expect(await complete('evening', 'lamp', 'TH')).toEqual(['thermometer-1']);
      expect(await complete('evening', 'lamp', 'x')).toEqual([]);
      // Not a device argument, an unknown prompt: nothing.
      expect(await complete('evening', 'level', 'l')).toEqual([]);
      expect(await complete('test_prompt_with_arguments', 'arg1', 'test')).toEqual([]);
    },
    SLOW,
  );
});
