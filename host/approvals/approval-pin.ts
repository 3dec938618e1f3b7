import type Database from 'better-sqlite3';
import { z } from 'zod';
import { approvalPinSchema, hashApprovalPin, verifyApprovalPin } from '../secrets/approval-pin-hash.ts';
import { ApprovalPinStore } from '../store/approval-pin-store.ts';
import { PIN_ATTEMPTS_BEFORE_LOCK, PIN_LOCK_MS, PinAttemptStore } from '../store/pin-attempt-store.ts';
import { PinActionStore } from '../store/pin-action-store.ts';
import type { ApprovalTarget } from '../store/standing-approval-store.ts';

/** Device kinds whose actions need the PIN unless the person says otherwise: what opens a home. */
export const PIN_DEVICE_KINDS: readonly string[] = ['lock', 'door', 'garage'];

/** The terminal command that removes a forgotten PIN (at the machine, never through the API). */
export const PIN_RESET_COMMAND = '`home-agent pin reset`';

/** A PIN given was right, or why it was refused (in words for the person, never echoing it). */
export type PinCheck = { ok: true } | { ok: false; message: string };

/**
 * The approval PIN of a data folder: whether a call needs it (the person's mark on the action, else
 * its device kind's default), the one check every answer with a PIN goes through (counting wrong
 * PINs in the store, so five in a row lock PIN approvals for ten minutes in every process), and
 * setting, changing and removing it (each but the first needs the current PIN).
 */
export class ApprovalPin {
  private readonly hashes: ApprovalPinStore;
  private readonly attempts: PinAttemptStore;
  readonly marks: PinActionStore;
  private readonly now: () => number;
  private readonly declaredPin: (deviceId: string, action: string) => boolean;

  constructor(options: {
    db: Database.Database;
    now?: () => number;
    /** Whether a device's declaration (its own, or its profile's) marks this action as needing the PIN. */
    declaredPin?: (deviceId: string, action: string) => boolean;
  }) {
    this.declaredPin = options.declaredPin ?? (() => false);
    this.now = options.now ?? Date.now;
    this.hashes = new ApprovalPinStore({ db: options.db, now: this.now });
    this.attempts = new PinAttemptStore({ db: options.db });
    this.marks = new PinActionStore({ db: options.db });
  }

  /** Whether an approval PIN is set. */
  isSet(): boolean {
    return this.hashes.hash() !== undefined;
  }

  /**
   * Whether a call of this tool on this device needs the PIN: the person's mark on the action when
   * there is one, else true for an action that changes something on a lock, door or garage, or one
   * its declaration marks (a profile's relay channel that opens a door).
   * Tools that are not a device's (no deviceId) never do.
   */
  needsPin(target: ApprovalTarget | undefined, tool: { readOnly?: boolean }): boolean {
    if (target?.deviceId === undefined) return false;
    const separator = target.tool.indexOf('__');
    if (separator <= 0) return false;
    const kind = target.tool.slice(0, separator);
    const action = target.tool.slice(separator + 2);
    const mark = this.marks.mark(target.deviceId, action);
    if (mark !== undefined) return mark;
    return (PIN_DEVICE_KINDS.includes(kind) && tool.readOnly !== true) || this.declaredPin(target.deviceId, action);
  }

  /** Whether this action of a device needs the PIN, with no call at hand (the grants view, `devices list`). */
  actionNeedsPin(options: { deviceId: string; kind: string; action: string; readOnly?: boolean }): boolean {
    return this.needsPin(
      { tool: `${options.kind}__${options.action}`, deviceId: options.deviceId },
      { readOnly: options.readOnly === true },
    );
  }

  /** Checks a PIN given to approve a call (or to change the PIN); a wrong one is counted. */
  check(pin: string | undefined): PinCheck {
    const now = this.now();
    const locked = this.attempts.lockedUntil(now);
    if (locked !== undefined) return { ok: false, message: lockedMessage(locked, now) };
    const hash = this.hashes.hash();
    if (hash === undefined)
      return { ok: false, message: 'No approval PIN is set: set one in Settings (Approval PIN) first.' };
    if (pin === undefined || pin === '') return { ok: false, message: 'This needs the PIN: type it in the PIN field.' };
    if (verifyApprovalPin(pin, hash)) {
      this.attempts.clear();
      return { ok: true };
    }
    const failure = this.attempts.recordFailure(now);
    if ('lockedUntil' in failure)
      return {
        ok: false,
        message: `Wrong PIN. That was ${PIN_ATTEMPTS_BEFORE_LOCK} wrong in a row: ${lockedMessage(failure.lockedUntil, now)}`,
      };
    return {
      ok: false,
      message: `Wrong PIN: ${failure.triesLeft} ${failure.triesLeft === 1 ? 'try' : 'tries'} left before PIN approvals lock for ${PIN_LOCK_MS / 60_000} minutes.`,
    };
  }

  /** Sets the PIN (the first time), or changes it (given the current one). */
  set(options: { pin: string; currentPin?: string }): PinCheck {
    const parsed = approvalPinSchema.safeParse(options.pin);
    if (!parsed.success)
      return { ok: false, message: `The new PIN ${z.prettifyError(parsed.error).replace(/^✖ /, '')}` };
    if (this.isSet()) {
      const current = this.check(options.currentPin);
      if (!current.ok) return { ok: false, message: currentPinMessage(current.message) };
    }
    this.hashes.setHash(hashApprovalPin(parsed.data));
    return { ok: true };
  }

  /** Removes the PIN, given the current one; calls that need it are then refused until a new one is set. */
  remove(currentPin: string | undefined): PinCheck {
    if (!this.isSet()) return { ok: false, message: 'No approval PIN is set.' };
    const current = this.check(currentPin);
    if (!current.ok) return { ok: false, message: currentPinMessage(current.message) };
    this.hashes.remove();
    return { ok: true };
  }

  /** Removes a forgotten PIN and any lock, at the machine (`home-agent pin reset`); false when none was set. */
  reset(): boolean {
    this.attempts.clear();
    return this.hashes.remove();
  }
}

function lockedMessage(lockedUntil: number, now: number): string {
  const minutes = Math.max(1, Math.ceil((lockedUntil - now) / 60_000));
  return `PIN approvals are locked for ${minutes} more minute${minutes === 1 ? '' : 's'} after ${PIN_ATTEMPTS_BEFORE_LOCK} wrong PINs. Wait, or reset the PIN at the machine with ${PIN_RESET_COMMAND}.`;
}

function currentPinMessage(message: string): string {
  return message.startsWith('This needs the PIN') ? 'Changing or removing the PIN needs the current PIN.' : message;
}
