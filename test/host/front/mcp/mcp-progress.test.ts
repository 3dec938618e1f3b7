import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { connectOverStdio } from '../../../helpers/mcp-clients.ts';
import { startTestHost, tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SLOW = 120_000;

function dataFolder(): string {
  const data = tempDataDir('home-agent-mcp-progress-');
  cleanups.push(() => data.remove());
  return data.dir;
}

describe('home-agent mcp reports progress to a client that asks for it', () => {
  it(
    'says a call waits for a person’s approval and where they answer it, then that it was approved',
    async () => {
      const dataDir = dataFolder();
      const relay = await startSimProcess({ kinds: ['relay'] });
      cleanups.push(() => relay.stop());
      const { host: window } = await startTestHost({ dataDir });
      cleanups.push(() => window.dispose());
      const asked = new Promise<Extract<AgentEvent, { type: 'approval/request' }>>((resolve) =>
        window.events.subscribe((event) => event.type === 'approval/request' && resolve(event)),
      );
      const home = await connectOverStdio({
        args: ['--device', `${relay.devices[0]!.path},profile=at-relay-4`, '--data-dir', dataDir],
      });
      cleanups.push(() => home.close());
      const reports: { progress: number; message?: string }[] = [];
      let told!: () => void;
      const toldOfApproval = new Promise<void>((resolve) => (told = resolve));
      const call = home.client.callTool({ name: 'relay__set', arguments: { channel: 1, on: true } }, undefined, {
        onprogress: (report) => {
          reports.push({ progress: report.progress, ...(report.message ? { message: report.message } : {}) });
          if (report.message?.includes('approval')) told();
        },
      });
      const question = await asked;
      await toldOfApproval;
      await window.handlers['approval/answer']({ approvalId: question.approvalId!, approved: true, remember: false });
      expect((await call).isError).toBeFalsy();
      expect(reports.slice(0, 2)).toEqual([
        {
          progress: 1,
          message:
            "relay__set is waiting for a person's approval: the person answers in a Home Agent window, the browser UI or the terminal where Home Agent runs, not in this client.",
        },
        { progress: 2, message: 'relay__set was approved: it runs now.' },
      ]);
      // Whether the relay took longer than a moment depends on the machine's load: at most the device's word follows.
      expect(reports.slice(2)).toEqual(
        reports.length > 2 ? [{ progress: 3, message: "relay__set is waiting for the device's answer." }] : [],
      );
    },
    SLOW,
  );

  it(
    'says a call waits for its device’s answer once it takes longer than a moment, and nothing to a client that did not ask',
    async () => {
      const home = await connectOverStdio({
        args: ['--sim', '--sim-latency-ms', '900', '--data-dir', dataFolder()],
      });
      cleanups.push(() => home.close());
      const reports: { progress: number; message?: string }[] = [];
      const result = await home.client.callTool({ name: 'lamp__get', arguments: { device_id: 'lamp-1' } }, undefined, {
        onprogress: (report) => reports.push({ progress: report.progress, message: report.message! }),
      });
      expect(result.isError).toBeFalsy();
      expect(reports).toEqual([{ progress: 1, message: "lamp__get is waiting for the device's answer." }]);
      // Without a progressToken no notification comes: the SDK client would throw on one it does not know.
      expect((await home.call('lamp__get', { device_id: 'lamp-2' })).isError).toBeFalsy();
      expect(home.errors).toEqual([]);
    },
    SLOW,
  );
});
