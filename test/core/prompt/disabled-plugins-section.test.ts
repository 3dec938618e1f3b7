import { describe, expect, it } from 'vitest';
import { assemblePrompt } from '../../../core/prompt/assemble-prompt.ts';
import { disabledPluginNames } from '../../../core/prompt/disabled-plugins-section.ts';
import type { Plugin } from '../../../core/plugins/plugin.ts';

const plugin = (name: string, description: string): Plugin => ({ name, description, tools: () => [] });

describe('the section naming the plugins the person turned off', () => {
  it('names them by name order with what each does and what the person can do, after every other section', () => {
    const { system } = assemblePrompt({
      plugins: [plugin('channels', 'Output channels.')],
      disabled: [plugin('sequences', 'Saved tool programs.'), plugin('devices', 'Serial devices of the home.')],
      persona: 'persona',
    });
    expect(
      system.endsWith(
        [
          'Plugins the person turned off: devices, sequences.',
          '- devices: Serial devices of the home.',
          '- sequences: Saved tool programs.',
          'Their tools are not offered now. If a request needs one, say that it is turned off and that the person can turn it on in the Plugins tab.',
        ].join('\n'),
      ),
    ).toBe(true);
    expect(disabledPluginNames(system)).toEqual(['devices', 'sequences']);
  });

  it('is absent when every plugin is on', () => {
    const { system } = assemblePrompt({ plugins: [plugin('devices', 'Serial devices.')], persona: 'persona' });
    expect(system).not.toContain('turned off');
    expect(disabledPluginNames(system)).toEqual([]);
  });
});
