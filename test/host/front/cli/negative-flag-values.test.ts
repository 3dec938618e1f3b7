import { describe, expect, it } from 'vitest';
import { joinNegativeValues } from '../../../../host/front/cli/join-negative-values.ts';
import { runCli } from '../../../helpers/run-cli.ts';

describe('a negative number for a numeric flag', () => {
  it('is joined to its flag, so the flag’s own check reads it (a later -- ends the options)', () => {
    expect(joinNegativeValues(['--max-steps', '-5', 'hi'])).toEqual(['--max-steps=-5', 'hi']);
    expect(joinNegativeValues(['--port', '-1.5'])).toEqual(['--port=-1.5']);
    expect(joinNegativeValues(['--json', 'hi', '-h'])).toEqual(['--json', 'hi', '-h']);
    expect(joinNegativeValues(['--', '--max-steps', '-5'])).toEqual(['--', '--max-steps', '-5']);
  });

  it('says what is wrong with the number, not that the flag "takes no value"', { timeout: 60_000 }, async () => {
    for (const [args, message] of [
      [['ask', '--max-steps', '-5', 'hi'], "--max-steps: the step limit is a whole number from 1 to 100 (got '-5')"],
      [['serve', '--port', '-1'], "--port must be 0–65535, got '-1'"],
      [['sim', '--latency-ms', '-5'], '--latency-ms must be a whole number of milliseconds'],
    ] as const) {
      const run = await runCli([...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toContain('takes no value');
    }
  });
});
