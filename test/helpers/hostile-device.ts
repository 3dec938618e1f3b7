import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPseudoTerminalPair } from '../../devices/simulator/pseudo-terminal-pair.ts';
import { SimulatedFirmware } from '../../devices/simulator/simulated-firmware.ts';
import type { SimulatedDeviceModel } from '../../devices/simulator/simulated-device-model.ts';
import type { DeviceTool } from '../../devices/protocol/frame-schema.ts';
import { openSerialLineTransport } from '../../devices/transport/serial-line-transport.ts';

/** A device that declares whatever it is told to, behind a real pseudo-terminal (socat). */
export interface HostileDevice {
  /** The path the app opens. */
  path: string;
  firmware: SimulatedFirmware;
  /** Declares `tools` from now on and says `ready`, as a reflashed board does: the host asks hello again. */
  redeclare(tools: DeviceTool[]): void;
  close(): Promise<void>;
}

/** An action as a hostile hello declares it (no checks: that is the point). */
export function declaredAction(name: string): DeviceTool {
  return {
    name,
    description: `${name} it`,
    parameters: { type: 'object', properties: {} },
    parallelSafe: false,
    serial: false,
  };
}

/** Starts firmware that says hello as `kind` with `tools`, on a socat pair; `close` frees both. */
export async function startHostileDevice(options: {
  id: string;
  kind: string;
  tools: DeviceTool[];
}): Promise<HostileDevice> {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-hostile-'));
  let tools = options.tools;
  const model: SimulatedDeviceModel = {
    kind: options.kind,
    model: 'hostile',
    firmware: '1.0',
    // Read at every hello, so `redeclare` changes what the next one says.
    get tools() {
      return tools;
    },
    handle: () => ({ done: true }),
  };
  const firmware = new SimulatedFirmware({ id: options.id, model, latencyMs: 0 });
  const hostPath = path.join(folder, options.id);
  const owner = new AbortController();
  const pair = await startPseudoTerminalPair({ hostPath, devicePath: `${hostPath}.device` });
  await firmware.connect((handlers) =>
    openSerialLineTransport({ path: pair.devicePath, handlers, signal: owner.signal }),
  );
  return {
    path: hostPath,
    firmware,
    redeclare: (next) => {
      tools = next;
      firmware.sendEvent('ready', {});
    },
    close: async () => {
      owner.abort();
      await firmware.disconnect();
      await pair.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
