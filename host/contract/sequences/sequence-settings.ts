// Pure (zod only): the renderer bundles the settings table, which spreads these rows in.
import { DEFAULT_SEQUENCE_BUDGET } from '../../../core/plugins/sequences/sequence-budget.ts';
import { wholeNumber } from '../../../devices/links/way-in-setting.ts';
import { pluginSetting } from '../plugin-setting.ts';

const { maxCalls, maxResultBytes, wallTimeMs } = DEFAULT_SEQUENCE_BUDGET;

/** What one sequence run may spend, each unset value the plugin's own default. */
export const sequenceSettings = {
  sequenceMaxCalls: pluginSetting({
    schema: wholeNumber({ min: 1, max: 1_000_000, what: 'the calls of one sequence run' }),
    label: 'Sequence run: calls at most',
    input: 'integer',
    help: `Calls one sequence run may start, nested runs included; empty: ${maxCalls.toLocaleString('en-US')}.`,
    flag: 'sequence-max-calls',
    env: 'HOME_AGENT_SEQUENCE_MAX_CALLS',
    appliesAt: 'turn',
    default: maxCalls,
  }),
  sequenceMaxResultBytes: pluginSetting({
    schema: wholeNumber({ min: 1024, max: 67_108_864, what: 'the results of one sequence run (bytes)' }),
    label: 'Sequence run: results at most (bytes)',
    input: 'integer',
    help: `How much one sequence run may keep of its tools’ results; empty: ${maxResultBytes.toLocaleString('en-US')} (${maxResultBytes / 1024} KiB).`,
    flag: 'sequence-max-result-bytes',
    env: 'HOME_AGENT_SEQUENCE_MAX_RESULT_BYTES',
    appliesAt: 'turn',
    default: maxResultBytes,
  }),
  sequenceWallTimeMs: pluginSetting({
    schema: wholeNumber({ min: 1000, max: 3_600_000, what: 'the wall time of one sequence run (ms)' }),
    label: 'Sequence run: wall time (ms)',
    input: 'integer',
    help: `How long one sequence run may take in all; empty: ${wallTimeMs.toLocaleString('en-US')} (${wallTimeMs / 60_000} minutes).`,
    flag: 'sequence-wall-time-ms',
    env: 'HOME_AGENT_SEQUENCE_WALL_TIME_MS',
    appliesAt: 'turn',
    default: wallTimeMs,
  }),
} as const;
