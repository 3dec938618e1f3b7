import { z } from 'zod';

/** A paired host's name on the wire: 16 hex digits, random, made once per data folder (not a secret). */
export const hostIdSchema = z.string().regex(/^[0-9a-f]{16}$/, '16 hex digits');

/**
 * The topics of one bridge, all under `{prefix}/{bridge}/`, so a broker's ACL can give the bridge its
 * own subtree. Per device: `device/{id}/…`, so no device id can meet a topic of the bridge itself.
 */
export interface BridgeTopics {
  /** Retained `online`/`offline` state; the last will says `offline`. */
  availability: string;
  /** A host's pairing request (with an MQTT 5 response topic). */
  pair: string;
  /** Where the bridge answers host `host`'s pairing request. */
  pairReply(host: string): string;
  /** Where the bridge answers host `host`'s requests (the response topic of each). */
  reply(host: string): string;
  /** Retained: what device `device` is and offers; empty when it is gone. */
  description(device: string): string;
  /** Requests for device `device`, signed by a paired host. */
  request(device: string): string;
  /** Events of device `device` for host `host`, signed with that host's key. */
  event(device: string, host: string): string;
  /** Retained: what host `host` granted on device `device`, signed. */
  grant(device: string, host: string): string;
}

/** The topics of bridge `bridge` under `prefix` (the setting mqttTopicPrefix). */
export function bridgeTopics(prefix: string, bridge: string): BridgeTopics {
  const base = `${prefix}/${bridge}`;
  return {
    availability: `${base}/availability`,
    pair: `${base}/pair`,
    pairReply: (host) => `${base}/pair/reply/${host}`,
    reply: (host) => `${base}/reply/${host}`,
    description: (device) => `${base}/device/${device}/description`,
    request: (device) => `${base}/device/${device}/request`,
    event: (device, host) => `${base}/device/${device}/event/${host}`,
    grant: (device, host) => `${base}/device/${device}/grant/${host}`,
  };
}

/** The filters that find every bridge's devices and availability under `prefix`. */
export function bridgeDiscoveryTopics(prefix: string): string[] {
  return [`${prefix}/+/availability`, `${prefix}/+/device/+/description`];
}

/** What one topic under `prefix` is, read back; undefined for a topic of no bridge. */
export type BridgeTopic =
  | { kind: 'availability'; bridge: string }
  | { kind: 'pair'; bridge: string }
  | { kind: 'pairReply' | 'reply'; bridge: string; host: string }
  | { kind: 'description' | 'request'; bridge: string; device: string }
  | { kind: 'event' | 'grant'; bridge: string; device: string; host: string };

/** Reads a topic of `bridgeTopics` back into what it is about. */
export function parseBridgeTopic(prefix: string, topic: string): BridgeTopic | undefined {
  if (!topic.startsWith(`${prefix}/`)) return undefined;
  const levels = topic.slice(prefix.length + 1).split('/');
  const [bridge, first, second, third, fourth] = levels;
  if (bridge === undefined || bridge === '') return undefined;
  if (levels.length === 2 && first === 'availability') return { kind: 'availability', bridge };
  if (levels.length === 2 && first === 'pair') return { kind: 'pair', bridge };
  if (levels.length === 4 && first === 'pair' && second === 'reply' && third)
    return { kind: 'pairReply', bridge, host: third };
  if (levels.length === 3 && first === 'reply' && second) return { kind: 'reply', bridge, host: second };
  if (first !== 'device' || !second) return undefined;
  if (levels.length === 4 && (third === 'description' || third === 'request'))
    return { kind: third, bridge, device: second };
  if (levels.length === 5 && (third === 'event' || third === 'grant') && fourth)
    return { kind: third, bridge, device: second, host: fourth };
  return undefined;
}
