/** How the host told that a port is the same device without opening a port: its by-id link, or a simulator's announcement. */
export const MOVE_REASONS = ['usb-serial', 'simulator'] as const;
export type MoveReason = (typeof MOVE_REASONS)[number];

/** Each reason in a person's words (the window and the terminal say the same). */
export const MOVE_REASON_WORDS: Record<MoveReason, string> = {
  'usb-serial': 'the same USB serial number',
  simulator: 'the same simulated device',
};

/** How a move reads for a person: `moved from A to B (the same USB serial number)`. */
export function describeMove(move: { from: string; to: string; because: MoveReason }): string {
  return `moved from ${move.from} to ${move.to} (${MOVE_REASON_WORDS[move.because]})`;
}
