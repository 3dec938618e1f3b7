import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPseudoTerminalPair } from '../../devices/simulator/pseudo-terminal-pair.ts';
import { SimulatedFirmware } from '../../devices/simulator/simulated-firmware.ts';
import type { EmitEvent, SimulatedDeviceModel } from '../../devices/simulator/simulated-device-model.ts';
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

/**
 * Starts firmware that says hello as `kind` with `tools` (and, when given, that `model` and
 * `firmware` text, and answers every call with `answer`), on a socat pair; `close` frees both.
 */
export async function startHostileDevice(options: {
  id: string;
  kind: string;
  tools: DeviceTool[];
  model?: string;
  firmware?: string;
  answer?: unknown;
  /** An event sent before each answer (a device's own words that reach the log). */
  event?: { name: string; data: Record<string, unknown> };
}): Promise<HostileDevice> {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-hostile-'));
  let tools = options.tools;
  let emit: EmitEvent | undefined;
  const model: SimulatedDeviceModel = {
    kind: options.kind,
    model: options.model ?? 'hostile',
    firmware: options.firmware ?? '1.0',
    // Read at every hello, so `redeclare` changes what the next one says.
    get tools() {
      return tools;
    },
    handle: () => {
      if (options.event) emit?.(options.event.name, options.event.data);
      return options.answer ?? { done: true };
    },
    bindEvents: (bound) => {
      emit = bound;
    },
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
