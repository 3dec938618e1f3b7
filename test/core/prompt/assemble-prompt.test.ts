import { describe, expect, it } from 'vitest';
import { assemblePrompt, type PromptAssembleListener } from '../../../core/prompt/assemble-prompt.ts';
import type { Plugin } from '../../../core/plugins/plugin.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { TOOL_ORDER_REST, ToolOrderError } from '../../../core/tools/order-tools.ts';

const tool = (name: string): ToolDefinition => ({
  name,
  description: name,
  parameters: { type: 'object' },
  handler: () => null,
});
const plugin = (
  name: string,
  tools: string[],
  sections: { id: string; order: number; text: string }[] = [],
): Plugin => ({
  name,
  description: name,
  tools: () => tools.map(tool),
  promptSections: () => sections,
});

describe('assemblePrompt', () => {
  it('orders the tools of all plugins lexicographically when toolOrder is absent', () => {
    const { tools } = assemblePrompt({
      plugins: [plugin('p2', ['zeta', 'Beta']), plugin('p1', ['alpha'])],
      persona: 'P',
    });
    expect(tools.map((item) => item.name)).toEqual(['Beta', 'alpha', 'zeta']);
  });

  it('applies toolOrder across plugins', () => {
    const { tools } = assemblePrompt({
      plugins: [plugin('p2', ['zeta', 'Beta']), plugin('p1', ['alpha'])],
      persona: 'P',
      toolOrder: ['zeta', TOOL_ORDER_REST],
    });
    expect(tools.map((item) => item.name)).toEqual(['zeta', 'Beta', 'alpha']);
  });

  it('throws a ToolOrderError for a listed name no plugin provides', () => {
    expect(() =>
      assemblePrompt({ plugins: [plugin('p', ['a'])], persona: 'P', toolOrder: ['b', TOOL_ORDER_REST] }),
    ).toThrow(ToolOrderError);
  });

  it('puts the persona first and sections in ascending order, ties by id', () => {
    const { system } = assemblePrompt({
      plugins: [
        plugin(
          'p',
          [],
          [
            { id: 'z-devices', order: 50, text: 'DEVICES' },
            { id: 'a-rooms', order: 50, text: 'ROOMS' },
            { id: 'early', order: 10, text: 'EARLY' },
          ],
        ),
      ],
      persona: 'PERSONA',
    });
    const at = (text: string) => system.indexOf(text);
    expect(at('PERSONA')).toBe(0);
    expect(at('EARLY')).toBeLessThan(at('## How your tool calls run'));
    expect(at('## How your tool calls run')).toBeLessThan(at('ROOMS'));
    expect(at('ROOMS')).toBeLessThan(at('DEVICES'));
  });

  it('hands listeners the authoritative order, and keeps what they return without re-sorting', () => {
    const seen: string[][] = [];
    const reverse: PromptAssembleListener = (assembly) => {
      seen.push(assembly.tools.map((item) => item.name));
      return { ...assembly, tools: [...assembly.tools].reverse().concat(tool('Added')) };
    };
    const { tools } = assemblePrompt({ plugins: [plugin('p', ['b', 'c', 'a'])], persona: 'P', listeners: [reverse] });
    expect(seen).toEqual([['a', 'b', 'c']]);
    expect(tools.map((item) => item.name)).toEqual(['c', 'b', 'a', 'Added']);
  });
});
