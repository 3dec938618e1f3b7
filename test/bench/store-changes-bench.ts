import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ScriptedModel } from '../../core/models/scripted/scripted-model.ts';
import { startSimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import { createHost, type Host } from '../../host/app/create-host.ts';
import { attachDevices } from '../../host/devices/attach-devices.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROUNDS = 6;
const CHECKS = 20_000;

/** What the bench reports: how soon a host that is running sees a change another process made. */
export interface StoreChangesResult {
  /** The mechanism: SQLite's data_version read before every call that reads grants, and polled. */
  mechanism: string;
  pollMs: number;
  rounds: number;
  /** From the CLI's exit to the host's answer to the next call, made at once (it already reflects the change). */
  nextCallMs: { median: number; max: number };
  /** How many of those next calls reflected the change (must equal `rounds`: half the changes are called at once). */
  nextCallsReflectingChange: number;
  /** From the CLI's exit to the live notice front ends re-read the list on, when nothing asks the host (the poll). */
  noticeMs: { median: number; max: number };
  /** The cost of the check a call pays when nothing changed. */
  checkUsPerCall: number;
}

function cli(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/home-agent.mjs'), ...args], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now()) : reject(new Error(`${args.join(' ')}: ${code}`)),
    );
  });
}

function statsOf(values: number[]): { median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round(sorted[Math.floor(sorted.length / 2)]!), max: round(sorted.at(-1)!) };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function granted(host: Host): Promise<string[]> {
  return Promise.resolve(host.handlers['devices/list']({})).then(({ devices }) => devices[0]?.granted ?? []);
}

/**
 * A running host with a paired lamp; the CLI (another process, another SQLite connection) grants and
 * revokes `set` in turns. For each change: how long after the CLI exits the host's next call answers
 * (already reflecting it), and how long until the live notice reaches front ends (the poll).
 */
export async function benchStoreChanges(): Promise<StoreChangesResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-bench-store-'));
  const sim = await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 });
  let host: Host | undefined;
  try {
    await cli(['devices', 'pair', sim.devices[0]!.path, '--yes', '--data-dir', dataDir]);
    const pollMs = 200;
    host = await createHost({
      dataDir,
      transport: 'cli',
      model: new ScriptedModel({ replies: [] }),
      attachDevices: (stores) =>
        attachDevices({
          sim: false,
          devices: [],
          ...stores,
          storePollMs: pollMs,
          log: () => undefined,
          signal: new AbortController().signal,
        }),
      log: () => undefined,
      version: 'bench',
    });
    const running = host;
    const context = { conversationId: 'bench', caller: 'bench', signal: AbortSignal.timeout(60_000) };
    const nextCall: number[] = [];
    const notice: number[] = [];
    let reflecting = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const action of ['grant', 'revoke'] as const) {
        const want = action === 'grant' ? ['set'] : [];
        let noticed: number | undefined;
        const arrived = new Promise<void>((resolve) => {
          const stop = running.notices.subscribe((received) => {
            if (received.type !== 'devices/changed') return;
            const at = performance.now();
            void granted(running).then((now) => {
              if (now.join() !== want.join() || noticed !== undefined) return;
              noticed = at;
              stop();
              resolve();
            });
          });
        });
        const exited = await cli(['devices', action, 'lamp-1', 'set', '--data-dir', dataDir]);
        if (round % 2 === 0) {
          // Nothing asks the host: only its poll can notice the change.
          await arrived;
          notice.push(noticed! - exited);
        } else {
          const outcome = await running.toolApi.call(context, 'lamp__set', { device_id: 'lamp-1', on: true });
          nextCall.push(performance.now() - exited);
          if (outcome.ok === (action === 'grant')) reflecting += 1;
          await arrived;
        }
      }
    }
    const plugin = running.plugins.all().find((entry) => entry.plugin.name === 'devices')!.plugin;
    const started = performance.now();
    // `withheld` of a name no device has: the store check plus a scan of the attached devices, nothing else.
    for (let check = 0; check < CHECKS; check++) plugin.withheld?.('none__none');
    const checkUs = ((performance.now() - started) * 1000) / CHECKS;
    return {
      mechanism: 'PRAGMA data_version before every device call and listing, polled every 200 ms for live notices',
      pollMs,
      rounds: ROUNDS,
      nextCallMs: statsOf(nextCall),
      nextCallsReflectingChange: reflecting,
      noticeMs: statsOf(notice),
      checkUsPerCall: round(checkUs),
    };
  } finally {
    await host?.dispose();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
