import { describe, expect, it } from 'vitest';
import {
  idlePluginToggle,
  nextPluginToggle,
  pluginToggleRequest,
  type PluginToggleFlow,
  type PluginToggleInput,
} from '../../../renderer/state/plugin-toggle-flow.ts';

const warning = "toolOrder lists 'system_list_tools', which only the plugin 'system' provides";

function run(inputs: PluginToggleInput[]): PluginToggleFlow {
  return inputs.reduce(nextPluginToggle, idlePluginToggle);
}

describe('nextPluginToggle', () => {
  it('sends a toggle without confirm first', () => {
    const flow = run([{ type: 'toggle', name: 'system', enabled: false }]);
    expect(flow).toEqual({ phase: 'sending', name: 'system', enabled: false, confirm: false });
    expect(pluginToggleRequest(flow)).toEqual({ name: 'system', enabled: false });
  });

  it('returns to idle when the host applied the change', () => {
    expect(
      run([
        { type: 'toggle', name: 'channels', enabled: false },
        { type: 'answer', applied: true },
      ]),
    ).toEqual({ phase: 'idle' });
  });

  it('waits for the person when the host refuses with a warning', () => {
    const flow = run([
      { type: 'toggle', name: 'system', enabled: false },
      { type: 'answer', applied: false, warning },
    ]);
    expect(flow).toEqual({ phase: 'warning', name: 'system', enabled: false, warning });
    expect(pluginToggleRequest(flow)).toBeUndefined();
  });

  it('resends the same change with confirm: true on Confirm', () => {
    const flow = run([
      { type: 'toggle', name: 'system', enabled: false },
      { type: 'answer', applied: false, warning },
      { type: 'confirm' },
    ]);
    expect(pluginToggleRequest(flow)).toEqual({ name: 'system', enabled: false, confirm: true });
    expect(nextPluginToggle(flow, { type: 'answer', applied: true })).toEqual({ phase: 'idle' });
  });

  it('sends nothing and returns to idle on Cancel', () => {
    const flow = run([
      { type: 'toggle', name: 'system', enabled: false },
      { type: 'answer', applied: false, warning },
      { type: 'cancel' },
    ]);
    expect(flow).toEqual({ phase: 'idle' });
    expect(pluginToggleRequest(flow)).toBeUndefined();
  });

  it('ignores a second toggle while one is pending or asked about', () => {
    const sending = run([{ type: 'toggle', name: 'system', enabled: false }]);
    expect(nextPluginToggle(sending, { type: 'toggle', name: 'devices', enabled: false })).toBe(sending);
    const asking = nextPluginToggle(sending, { type: 'answer', applied: false, warning });
    expect(nextPluginToggle(asking, { type: 'toggle', name: 'devices', enabled: false })).toBe(asking);
  });

  it('ignores confirm and cancel when nothing was asked, and answers when nothing was sent', () => {
    expect(
      run([
        { type: 'confirm' },
        { type: 'cancel' },
        { type: 'answer', applied: true },
        { type: 'failed', message: 'x' },
      ]),
    ).toEqual(idlePluginToggle);
    const sending = run([{ type: 'toggle', name: 'system', enabled: false }]);
    expect(nextPluginToggle(sending, { type: 'confirm' })).toBe(sending);
  });

  it('ends a confirmed change the host still refuses as an error, never as a second question', () => {
    const flow = run([
      { type: 'toggle', name: 'system', enabled: false },
      { type: 'answer', applied: false, warning },
      { type: 'confirm' },
      { type: 'answer', applied: false, warning },
    ]);
    expect(flow).toEqual({ phase: 'idle', error: { name: 'system', message: warning } });
  });

  it('keeps the host’s failure message for the plugin that failed', () => {
    const flow = run([
      { type: 'toggle', name: 'ghost', enabled: true },
      { type: 'failed', message: "there is no plugin named 'ghost'" },
    ]);
    expect(flow).toEqual({ phase: 'idle', error: { name: 'ghost', message: "there is no plugin named 'ghost'" } });
  });

  it('clears an earlier error with the next toggle', () => {
    const failed = run([
      { type: 'toggle', name: 'ghost', enabled: true },
      { type: 'failed', message: 'no' },
    ]);
    expect(nextPluginToggle(failed, { type: 'toggle', name: 'devices', enabled: false })).toEqual({
      phase: 'sending',
      name: 'devices',
      enabled: false,
      confirm: false,
    });
  });
});
