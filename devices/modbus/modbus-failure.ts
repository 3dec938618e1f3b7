import { ToolError } from '../../core/tools/tool-error.ts';

/** Exception codes of the Modbus application protocol (v1.1b3, section 7) and what each means. */
export const MODBUS_EXCEPTIONS: Readonly<Record<number, { name: string; hint: string }>> = {
  1: { name: 'illegal function', hint: 'the device does not support this kind of request: check the profile' },
  2: { name: 'illegal data address', hint: 'the device has no such register: check the address in the profile' },
  3: { name: 'illegal data value', hint: 'the device refuses this value' },
  4: { name: 'server device failure', hint: 'the device reports an internal fault' },
  5: { name: 'acknowledge', hint: 'the device accepted a long operation: read it again later' },
  6: { name: 'server device busy', hint: 'the device is busy: retry shortly' },
  8: { name: 'memory parity error', hint: 'the device reports a memory fault' },
  10: { name: 'gateway path unavailable', hint: 'the gateway cannot reach the device' },
  11: { name: 'gateway target device failed to respond', hint: 'the gateway got no answer from the device' },
};

/** What went wrong with one transaction, typed; `frameProblem` when the reply itself was damaged (to be counted). */
export interface ModbusFailure {
  error: ToolError;
  frameProblem?: string;
}

/**
 * Reads a modbus-serial failure. No reply → `timeout` naming the unit; an exception response →
 * `failed` naming the exception; a bad CRC, a malformed reply, or one the library could not decode
 * (a `RangeError` from a byte count that lies) → `failed`, marked as a frame problem.
 * `changes` says the request would change something, so an unanswered one may have acted.
 */
export function modbusFailure(
  error: unknown,
  request: { who: string; what: string; timeoutMs: number; changes: boolean },
): ModbusFailure {
  const { who, what } = request;
  const failure = error as { message?: unknown; errno?: unknown; modbusCode?: unknown } | undefined;
  const message = typeof failure?.message === 'string' ? failure.message : String(error);
  if (typeof failure?.modbusCode === 'number') {
    const known = MODBUS_EXCEPTIONS[failure.modbusCode];
    return {
      error: new ToolError({
        reason: 'failed',
        detail: `${who} answered ${what} with exception ${failure.modbusCode} (${known?.name ?? 'unknown exception'})`,
        ...(known ? { hint: known.hint } : {}),
      }),
    };
  }
  if (failure?.errno === 'ETIMEDOUT' || message === 'Timed out') {
    return {
      error: new ToolError({
        reason: 'timeout',
        detail: `${who} did not answer ${what} within ${request.timeoutMs} ms${request.changes ? '; it may have acted anyway' : ''}`,
        hint: request.changes
          ? 'read the device before trying again; check that it is powered and on the bus'
          : 'check that a device with this unit id is powered and on the bus, at these bus settings',
      }),
    };
  }
  if (/CRC error|Data length error|Unexpected data error/.test(message)) return damagedReply(request, message);
  // The library threw while decoding a reply it had accepted: the reply cannot be read.
  if (error instanceof RangeError || error instanceof TypeError)
    return damagedReply(request, `the reply could not be read: ${message}`);
  return {
    error: new ToolError({ reason: 'failed', detail: `${who}: ${what} failed: ${message}` }),
  };
}

/** A reply that arrived but cannot be trusted (`why`: a bad CRC, a wrong length, a byte count that lies); counted as a frame problem. */
export function damagedReply(
  request: { who: string; what: string; changes: boolean },
  why: string,
): ModbusFailure & { frameProblem: string } {
  return {
    error: new ToolError({
      reason: 'failed',
      detail: `${request.who} sent a damaged reply to ${request.what} (${why})${request.changes ? '; it may have acted' : ''}`,
      hint: 'noise on the bus or a second master: check wiring, termination and bus settings',
    }),
    frameProblem: why,
  };
}
