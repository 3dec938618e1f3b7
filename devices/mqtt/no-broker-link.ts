import { ToolError } from '../../core/tools/tool-error.ts';
import { DeviceLinkBase } from '../links/device-link-base.ts';

/**
 * The link of a device paired behind a broker while this host has none configured: offline, saying
 * why, until the host starts with one. It never connects anywhere.
 */
export class NoBrokerLink extends DeviceLinkBase {
  constructor(
    label: string,
    private readonly why: string,
  ) {
    super(label);
  }

  start(): void {
    this.setStatus('offline');
    // Told once start has returned, so whoever started it (the registry) is listening.
    queueMicrotask(() => this.reportProblem({ problem: 'connection', detail: `${this.label}: ${this.why}` }));
  }

  call(): Promise<unknown> {
    return Promise.reject(new ToolError({ reason: 'device_offline', detail: `${this.label}: ${this.why}` }));
  }

  async dispose(): Promise<void> {
    this.lifetime.abort();
    this.setStatus('closed');
    this.clearListeners();
  }
}
