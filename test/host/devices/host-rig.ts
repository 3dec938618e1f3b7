import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import type { ApprovalPolicy } from '../../../host/approvals/person-approval-gate.ts';
import type { DeviceSummary, HostNotice } from '../../../host/contract/api-contract.ts';
import type { ToolOutcome } from '../../../core/tools/tool-result.ts';

/** A temp data folder; `remove` deletes it. */
export function tempDataDir(prefix = 'home-agent-host-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A host on a data folder with the real device layer (paired devices from the store, no --sim), a
 * scripted model, and everything it notices and logs collected.
 */
export async function startTestHost(options: {
  dataDir: string;
  script?: Script;
  approvalPolicy?: ApprovalPolicy;
  /** How often the host looks at the store while nothing asks; a long one proves the per-call check. */
  storePollMs?: number;
  /** Devices named on the command line (granted everything). */
  devices?: { path: string; profile?: string }[];
}): Promise<{ host: Host; notices: HostNotice[]; log: string[] }> {
  const log: string[] = [];
  const notices: HostNotice[] = [];
  const host = await createHost({
    dataDir: options.dataDir,
    transport: 'web',
    model: new ScriptedModel(options.script ?? { replies: [] }),
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    attachDevices: (stores) =>
      attachDevices({
        sim: false,
        devices: options.devices ?? [],
        ...stores,
        ...(options.storePollMs !== undefined ? { storePollMs: options.storePollMs } : {}),
        log: (line) => log.push(line),
        signal: new AbortController().signal,
      }),
    log: (line) => log.push(line),
    version: 'test',
  });
  host.notices.subscribe((notice) => notices.push(notice));
  return { host, notices, log };
}

/** Resolves with the devices list once it satisfies `test`, looking again at every notice (never on a timer). */
export function devicesWhen(host: Host, test: (devices: DeviceSummary[]) => boolean): Promise<DeviceSummary[]> {
  return new Promise((resolve) => {
    const look = async (): Promise<boolean> => {
      const { devices } = await host.handlers['devices/list']({});
      if (!test(devices)) return false;
      resolve(devices);
      return true;
    };
    const unsubscribe = host.notices.subscribe(() => {
      void look().then((done) => done && unsubscribe());
    });
    void look().then((done) => done && unsubscribe());
  });
}

/** One call through the ToolAPI (the same CanUse gate and pipeline as the agent's). */
export function callTool(host: Host, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return host.toolApi.call({ conversationId: 'test', caller: 'test', signal: AbortSignal.timeout(10_000) }, name, args);
}
