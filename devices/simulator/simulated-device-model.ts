import type { DeviceTool } from '../protocol/frame-schema.ts';

/** A failure a simulated device reports in its error frame. */
export class DeviceFailure extends Error {
  constructor(
    readonly reason: string,
    detail: string,
    readonly field?: string,
  ) {
    super(detail);
    this.name = 'DeviceFailure';
  }
}

/** What a simulated device emits unsolicited (a button, a door). */
export type EmitEvent = (event: string, data: Record<string, unknown>) => void;

/** The behaviour of one simulated device kind: its declaration and what each action does. */
export interface SimulatedDeviceModel {
  readonly kind: string;
  readonly model: string;
  readonly firmware: string;
  readonly tools: DeviceTool[];
  /** Whether hello advertises tagged concurrency. */
  readonly concurrent?: boolean;
  /** Runs one action; throws DeviceFailure for the device's own errors. */
  handle(tool: string, args: Record<string, unknown>): unknown;
  /** Called once with the function that sends events while connected. */
  bindEvents?(emit: EmitEvent): void;
}
