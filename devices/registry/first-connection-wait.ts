/**
 * How long a device that has not been online since it was attached is given for its first
 * connection, counted from the first call that needs it: a USB adapter enumerating, an Arduino that
 * resets when its port opens (its bootloader waits 1–2 s), a simulator or a bridge that starts after
 * the host. The host attaches paired devices without waiting for them, so their tools are offered at
 * once (from what is pinned); a call then waits for the device instead of failing because the host
 * itself only just started. Counted from the call, not the attach, so a host that starts slowly
 * (a Raspberry Pi, a loaded machine) does not use it up before anyone asked.
 */
export const FIRST_CONNECTION_MS = 10_000;

/**
 * How long a call waits for a device that has not been online since it was attached: until
 * FIRST_CONNECTION_MS after the first call that needed it (`firstCallAt`), and at least the hello
 * timeout, as any later call. A device whose connection already failed (a refused hello, a port
 * another program holds) is not late but in trouble: it gets the hello timeout only.
 */
export function firstConnectionWaitMs(options: {
  firstCallAt: number;
  now: number;
  helloTimeoutMs: number;
  failed: boolean;
}): number {
  if (options.failed) return options.helloTimeoutMs;
  return Math.max(options.helloTimeoutMs, options.firstCallAt + FIRST_CONNECTION_MS - options.now);
}
