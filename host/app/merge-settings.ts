import type { AgentSettings } from '../../core/agent/assemble-turn.ts';
import type { Settings } from '../store/settings-keys.ts';

/**
 * The settings a turn uses: this run's overrides over the stored settings. A key absent from both
 * stays absent — an omitted `toolOrder` never becomes `[]` (seed 000).
 */
export function mergeSettings(stored: Settings, overrides: AgentSettings): AgentSettings {
  const merged: AgentSettings = {};
  const persona = overrides.persona ?? stored.persona;
  if (persona !== undefined) merged.persona = persona;
  const toolOrder = overrides.toolOrder ?? stored.toolOrder;
  if (toolOrder !== undefined) merged.toolOrder = [...toolOrder];
  const maxSteps = overrides.maxSteps ?? stored.maxSteps;
  if (maxSteps !== undefined) merged.maxSteps = maxSteps;
  const toolTimeoutMs = overrides.toolTimeoutMs ?? stored.toolTimeoutMs;
  if (toolTimeoutMs !== undefined) merged.toolTimeoutMs = toolTimeoutMs;
  const concurrencyCap = overrides.concurrencyCap ?? stored.concurrencyCap;
  if (concurrencyCap !== undefined) merged.concurrencyCap = concurrencyCap;
  return merged;
}
