import { ToolError } from '../../../core/tools/tool-error.ts';
import { MQTT_NOT_AUTHORIZED, MqttPublishError } from '../mqtt-broker.ts';

/**
 * A publish that got no acknowledgement: never written (not connected: it was not sent), or written
 * and then no PUBACK — in time (`timeout`) or before the connection dropped (`device_offline`); a
 * written one may have reached the device, so the caller marks it sent.
 */
export function publishFailure(options: {
  deviceId: string;
  error: unknown;
  timedOut: boolean;
  timeoutMs: number;
}): ToolError {
  const { deviceId, error } = options;
  const hint = 'the command may have reached the device: read its state before trying again';
  if (error instanceof MqttPublishError && !error.written)
    return new ToolError({
      reason: 'device_offline',
      detail: `${deviceId}: ${error.message}`,
      hint: 'retry once the broker is back',
    });
  if (error instanceof MqttPublishError)
    return options.timedOut
      ? new ToolError({
          reason: 'timeout',
          detail: `${deviceId}: ${error.message} within ${options.timeoutMs} ms`,
          hint,
        })
      : new ToolError({ reason: 'device_offline', detail: `${deviceId}: ${error.message}`, hint });
  return new ToolError({
    reason: 'failed',
    detail: `${deviceId}: ${error instanceof Error ? error.message : String(error)}`,
  });
}

/** The broker refused the publish (its PUBACK reason code): nothing reached the device. */
export function refusal(deviceId: string, topic: string, reasonCode: number): ToolError {
  const code = `0x${reasonCode.toString(16)}`;
  return reasonCode === MQTT_NOT_AUTHORIZED
    ? new ToolError({
        reason: 'unauthorized',
        detail: `${deviceId}: the broker does not allow Home Agent to publish on ${topic} (reason ${code}, not authorized)`,
        hint: "the broker's ACL must let Home Agent's user write this topic",
      })
    : new ToolError({
        reason: 'failed',
        detail: `${deviceId}: the broker refused the command on ${topic} (reason ${code})`,
      });
}
