/**
 * Where one enable/disable of a plugin stands. One change at a time: `sending` waits for the
 * host, `warning` waits for the person to confirm or cancel what the host warned about.
 */
export type PluginToggleFlow =
  | { phase: 'idle'; error?: { name: string; message: string } }
  | { phase: 'sending'; name: string; enabled: boolean; confirm: boolean }
  | { phase: 'warning'; name: string; enabled: boolean; warning: string };

/** What can happen to the flow: the person's clicks and the host's answers. */
export type PluginToggleInput =
  | { type: 'toggle'; name: string; enabled: boolean }
  | { type: 'answer'; applied: boolean; warning?: string }
  | { type: 'failed'; message: string }
  | { type: 'confirm' }
  | { type: 'cancel' };

export const idlePluginToggle: PluginToggleFlow = { phase: 'idle' };

/**
 * Pure: the flow after one input. A refusal with a warning waits for the person; Confirm resends
 * the same change with `confirm: true`; Cancel sends nothing. Inputs that do not fit the phase
 * (a second toggle while one is pending, a stray answer) leave the flow as it is.
 */
export function nextPluginToggle(flow: PluginToggleFlow, input: PluginToggleInput): PluginToggleFlow {
  switch (input.type) {
    case 'toggle':
      return flow.phase === 'idle'
        ? { phase: 'sending', name: input.name, enabled: input.enabled, confirm: false }
        : flow;
    case 'answer':
      if (flow.phase !== 'sending') return flow;
      if (input.applied) return idlePluginToggle;
      // Only a first, unconfirmed request may end in a question; a refused confirmation is a failure.
      if (input.warning !== undefined && !flow.confirm)
        return { phase: 'warning', name: flow.name, enabled: flow.enabled, warning: input.warning };
      return {
        phase: 'idle',
        error: { name: flow.name, message: input.warning ?? `The host did not apply the change to ${flow.name}.` },
      };
    case 'failed':
      return flow.phase === 'sending' ? { phase: 'idle', error: { name: flow.name, message: input.message } } : flow;
    case 'confirm':
      return flow.phase === 'warning'
        ? { phase: 'sending', name: flow.name, enabled: flow.enabled, confirm: true }
        : flow;
    case 'cancel':
      return flow.phase === 'warning' ? idlePluginToggle : flow;
  }
}

/** Pure: the request a flow in `sending` makes, or undefined in any other phase. */
export function pluginToggleRequest(
  flow: PluginToggleFlow,
): { name: string; enabled: boolean; confirm?: true } | undefined {
  if (flow.phase !== 'sending') return undefined;
  return flow.confirm
    ? { name: flow.name, enabled: flow.enabled, confirm: true }
    : { name: flow.name, enabled: flow.enabled };
}
