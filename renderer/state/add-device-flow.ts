import type { ApiOutput, FoundDevice, ProbedDevice, ScannedPort } from '../../host/contract/api-contract.ts';

/** Where to find a device and how it talks, as the person chose it. */
export interface DevicePlacement {
  path: string;
  profile?: string;
  /** The options the profile's way in asks (`{unit: 1}`). */
  options?: Record<string, string | number>;
}

/** A profile a device may speak through, as the host lists it. */
export type DeviceProfileOption = ApiOutput<'devices/scan'>['profiles'][number];

/**
 * The "Add device" flow: scan → choose a port (or type a path and profile) → the host opens it and
 * shows who the device is → Pair. Each step keeps its own status, so a failed look can be retried
 * without scanning again; answers of superseded requests are dropped by their request number.
 */
export interface AddDeviceFlow {
  open: boolean;
  scan: {
    status: 'idle' | 'scanning' | 'done' | 'failed';
    request: number;
    ports: ScannedPort[];
    /** Devices found behind a broker, listed beside the ports. */
    found: FoundDevice[];
    warnings: string[];
    profiles: DeviceProfileOption[];
    error?: string;
  };
  probe: {
    status: 'idle' | 'probing' | 'done' | 'failed';
    request: number;
    placement?: DevicePlacement;
    device?: ProbedDevice;
    error?: string;
  };
  pair: {
    status: 'idle' | 'pairing' | 'done' | 'failed';
    error?: string;
    paired?: { deviceId: string; alias: string };
  };
}

export const closedAddDevice: AddDeviceFlow = {
  open: false,
  scan: { status: 'idle', request: 0, ports: [], found: [], warnings: [], profiles: [] },
  probe: { status: 'idle', request: 0 },
  pair: { status: 'idle' },
};

/** What can happen to the flow. */
export type AddDeviceInput =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'scan'; request: number }
  | { type: 'scanned'; request: number; answer: ApiOutput<'devices/scan'> }
  | { type: 'scan-failed'; request: number; message: string }
  | { type: 'probe'; request: number; placement: DevicePlacement }
  | { type: 'probed'; request: number; device: ProbedDevice }
  | { type: 'probe-failed'; request: number; message: string }
  | { type: 'pair' }
  | { type: 'paired'; deviceId: string; alias: string }
  | { type: 'pair-failed'; message: string }
  | { type: 'look-again' };

/** Pure: the flow after one input. */
export function nextAddDevice(flow: AddDeviceFlow, input: AddDeviceInput): AddDeviceFlow {
  switch (input.type) {
    case 'open':
      return { ...closedAddDevice, open: true, scan: { ...closedAddDevice.scan, request: flow.scan.request } };
    case 'close':
      return { ...closedAddDevice, scan: { ...closedAddDevice.scan, request: flow.scan.request } };
    case 'scan':
      return { ...flow, scan: { ...flow.scan, status: 'scanning', request: input.request, error: undefined } };
    case 'scanned':
      if (input.request !== flow.scan.request) return flow;
      return {
        ...flow,
        scan: {
          status: 'done',
          request: input.request,
          ports: input.answer.ports,
          found: input.answer.found ?? [],
          warnings: input.answer.warnings,
          profiles: input.answer.profiles,
        },
      };
    case 'scan-failed':
      if (input.request !== flow.scan.request) return flow;
      return { ...flow, scan: { ...flow.scan, status: 'failed', error: input.message } };
    case 'probe':
      return {
        ...flow,
        probe: { status: 'probing', request: input.request, placement: input.placement },
        pair: { status: 'idle' },
      };
    case 'probed':
      if (input.request !== flow.probe.request || flow.probe.status !== 'probing') return flow;
      return { ...flow, probe: { ...flow.probe, status: 'done', device: input.device } };
    case 'probe-failed':
      if (input.request !== flow.probe.request || flow.probe.status !== 'probing') return flow;
      return { ...flow, probe: { ...flow.probe, status: 'failed', error: input.message } };
    case 'pair':
      if (flow.probe.status !== 'done' || flow.pair.status === 'pairing') return flow;
      return { ...flow, pair: { status: 'pairing' } };
    case 'paired':
      return { ...flow, pair: { status: 'done', paired: { deviceId: input.deviceId, alias: input.alias } } };
    case 'pair-failed':
      return { ...flow, pair: { status: 'failed', error: input.message } };
    case 'look-again':
      return { ...flow, probe: { status: 'idle', request: flow.probe.request }, pair: { status: 'idle' } };
  }
}
