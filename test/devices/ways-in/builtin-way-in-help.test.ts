import { describe, expect, it } from 'vitest';
import { BUILTIN_WAY_IN_HELP } from '../../../devices/ways-in/builtin-way-in-help.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

describe('BUILTIN_WAY_IN_HELP', () => {
  it('is the help every built-in way in declares, in the same order, so help loads no way in and never drifts', () => {
    expect(BUILTIN_WAY_IN_HELP).toEqual(builtinWaysIn().flatMap((way) => (way.help ? [way.help] : [])));
  });
});
