import { ToolError } from '../../core/tools/tool-error.ts';
import {
  MQTT_NOT_AUTHORIZED,
  MQTT_REFUSAL,
  MqttPublishError,
  type MqttBroker,
  type MqttMessageProperties,
} from './mqtt-broker.ts';

/**
 * Publishes one call's request at QoS 1 and says what became of it, as a device call's outcome needs:
 * `onSent` runs on the broker's PUBACK (from then on the device may act on it, so a call lost later is
 * `unknown`); a publish written but never acknowledged also runs `onSent` (the broker may have passed it
 * on) and rejects `device_offline`; one never written rejects `device_offline` without it (`not_sent`); one
 * the broker refused (0x87: its ACL denies this topic) rejects `unauthorized`, any other refusal `failed`.
 */
export async function publishCall(options: {
  broker: MqttBroker;
  topic: string;
  payload: Buffer | string;
  properties?: MqttMessageProperties;
  /** For messages: the device (`cellar.relay-1`). */
  deviceId: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  onSent?: (() => void) | undefined;
}): Promise<void> {
  const { broker, topic, deviceId } = options;
  let reasonCode: number;
  try {
    ({ reasonCode } = await broker.publish(topic, options.payload, {
      qos: 1,
      timeoutMs: options.timeoutMs,
      ...(options.properties ? { properties: options.properties } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }));
  } catch (error) {
    if (!(error instanceof MqttPublishError)) throw error;
    // Written but not acknowledged: the broker may have passed it on before the connection went, so
    // the device may have acted (outcome unknown); only a request that never left is not sent.
    if (error.written) {
      options.onSent?.();
      throw new ToolError({
        reason: 'device_offline',
        detail: `${deviceId}: the request left but the broker did not acknowledge it (${error.message}); it may have acted`,
        hint: "check the device's state before trying again",
      });
    }
    throw new ToolError({
      reason: 'device_offline',
      detail: `${deviceId}: the request was not sent (${error.message})`,
      hint: 'retry once the broker is reachable again',
    });
  }
  if (reasonCode === MQTT_NOT_AUTHORIZED)
    throw new ToolError({
      reason: 'unauthorized',
      detail: `${deviceId}: the broker ${broker.label} refused the request on ${topic}: not authorized (reason 0x87)`,
      hint: "the broker's ACL does not let this host write that topic",
    });
  if (reasonCode >= MQTT_REFUSAL)
    throw new ToolError({
      reason: 'failed',
      detail: `${deviceId}: the broker ${broker.label} refused the request on ${topic} (reason 0x${reasonCode.toString(16)})`,
    });
  options.onSent?.();
}
