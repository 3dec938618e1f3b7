import { isIP } from 'node:net';

/**
 * How many wrong tokens a client may send before it must wait, and how fast that allowance comes
 * back. 10 at once, then one every 6 s (10 a minute): a person mistyping, a stale bookmark or a
 * few tabs reconnecting stay below it; an attacker is held to 14,400 guesses a day, against a
 * generated token of 192 random bits (or at least 16 characters given by hand).
 */
export const WRONG_TOKEN_BURST = 10;
export const WRONG_TOKEN_REFILL_MS = 6_000;
/** Clients remembered at most (each a few bytes); the quietest are forgotten first. */
const MAX_CLIENTS = 10_000;

/** The client a remote address stands for: an IPv6 address by its /64 (one home, one client), IPv4-mapped as IPv4. */
export function clientOf(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  if (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4) return address.slice(7);
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::');
  const groups = [...head.split(':').filter(Boolean)];
  const tailGroups = tail.split(':').filter(Boolean);
  while (groups.length + tailGroups.length < 8) groups.push('0');
  return `${[...groups, ...tailGroups].slice(0, 4).join(':')}::/64`;
}

/**
 * Counts wrong tokens per client as a leaky bucket: each wrong token adds one, the bucket drains
 * one every `refillMs`; a client whose bucket is full must wait (`retryAfterMs` > 0).
 */
export class WrongTokenLimiter {
  private readonly buckets = new Map<string, { level: number; at: number }>();
  private readonly burst: number;
  private readonly refillMs: number;
  private readonly now: () => number;

  constructor(options: { burst?: number; refillMs?: number; now?: () => number } = {}) {
    this.burst = options.burst ?? WRONG_TOKEN_BURST;
    this.refillMs = options.refillMs ?? WRONG_TOKEN_REFILL_MS;
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds until `client` may try a token again; 0 when it may now. */
  retryAfterMs(client: string): number {
    const level = this.level(client);
    return level + 1 > this.burst ? Math.ceil((level + 1 - this.burst) * this.refillMs) : 0;
  }

  /** Records one wrong (or missing) token from `client`. */
  fail(client: string): void {
    const level = this.level(client) + 1;
    this.buckets.delete(client); // re-inserted last: the map stays ordered from quietest to busiest
    this.buckets.set(client, { level, at: this.now() });
    if (this.buckets.size > MAX_CLIENTS) this.forgetQuietest();
  }

  private level(client: string): number {
    const bucket = this.buckets.get(client);
    if (bucket === undefined) return 0;
    return Math.max(0, bucket.level - (this.now() - bucket.at) / this.refillMs);
  }

  private forgetQuietest(): void {
    for (const client of this.buckets.keys()) {
      if (this.buckets.size <= MAX_CLIENTS / 2) return;
      this.buckets.delete(client);
    }
  }
}
