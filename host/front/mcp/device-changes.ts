import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { HostNotice } from '../../contract/api-contract.ts';

/** The most calls a watch keeps the device of while they run (a call that never ends is forgotten past it). */
const MAX_WATCHED_CALLS = 256;

/**
 * Hears when a device's state may have changed, from any front end or process: a device announced
 * something (`device/event`), a read after a Stop said its state (`device/state`), a call that acts
 * on it (not a read) ended ok, or the devices changed (`devices/changed`: status, pairing, grants;
 * then every device, `undefined`). Returns the function that stops listening.
 */
export function watchDeviceChanges(
  sources: {
    notices: { subscribe(listener: (notice: HostNotice) => void): () => void };
    events: { subscribe(listener: (event: AgentEvent) => void): () => void };
    readOnly: (toolName: string) => boolean;
  },
  changed: (deviceId: string | undefined) => void,
): () => void {
  // The device each running call acts on: batch/start declares it, tool/end does not repeat it.
  const acting = new Map<string, string>();
  const stopNotices = sources.notices.subscribe((notice) => {
    if (notice.type === 'device/event') changed(notice.deviceId);
    else if (notice.type === 'devices/changed') changed(undefined);
  });
  const stopEvents = sources.events.subscribe((event) => {
    if (event.type === 'device/state') changed(event.deviceId);
    else if (event.type === 'batch/start') {
      for (const call of event.calls) {
        const deviceId = call.args.device_id;
        if (typeof deviceId !== 'string' || !call.name.includes('__') || sources.readOnly(call.name)) continue;
        acting.set(call.callId, deviceId);
        if (acting.size > MAX_WATCHED_CALLS) acting.delete(acting.keys().next().value!);
      }
    } else if (event.type === 'tool/end') {
      const deviceId = acting.get(event.callId);
      acting.delete(event.callId);
      if (deviceId !== undefined && event.ok) changed(deviceId);
    }
  });
  return () => {
    stopNotices();
    stopEvents();
  };
}
