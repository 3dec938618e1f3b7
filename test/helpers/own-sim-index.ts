import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * Gives the calling test file a simulator index of its own, set as HOME_AGENT_SIM_INDEX while its
 * tests run (so its in-process hosts see only its simulators, whatever else runs on the machine) and
 * removed afterwards. Returns the folder, to hand to start-sim-process's `env`.
 */
export function useOwnSimIndex(): string {
  const index = mkdtempSync(path.join(tmpdir(), 'home-agent-sim-index-'));
  const previousIndex = process.env.HOME_AGENT_SIM_INDEX;
  beforeAll(() => {
    process.env.HOME_AGENT_SIM_INDEX = index;
  });
  afterAll(() => {
    if (previousIndex === undefined) delete process.env.HOME_AGENT_SIM_INDEX;
    else process.env.HOME_AGENT_SIM_INDEX = previousIndex;
    rmSync(index, { recursive: true, force: true });
  });
  return index;
}
