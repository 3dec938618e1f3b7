import { z } from 'zod';

/** The doors of a home's socket: what the process that connects asks for in its first line. */
export const LINK_DOORS = ['api', 'turn', 'tool-server', 'take'] as const;
export type LinkDoorName = (typeof LINK_DOORS)[number];

/** Text another process wrote that may reach a terminal: one line, no control characters. */
const plainText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'no control characters');

/** The first line a process sends: which door, and who it is (for the host's log and the person). */
export const linkHelloSchema = z.object({
  link: z.literal('home-agent'),
  version: z.literal(1),
  door: z.enum(LINK_DOORS),
  pid: z.number().int().positive(),
  command: plainText(200),
});
export type LinkHello = z.infer<typeof linkHelloSchema>;

/** Who holds a home: the host's process, how a person would name it, and whether it hands the home over. */
export const linkHolderSchema = z.object({
  pid: z.number().int().positive(),
  command: plainText(200),
  /** `window`: serves the home for good (serve, the desktop window); `tool-server`: hosts only until a window comes. */
  kind: z.enum(['window', 'tool-server']),
  version: plainText(50),
});
export type LinkHolder = z.infer<typeof linkHolderSchema>;

/** The host's answer to a hello: the door is open, or why not. */
export const linkWelcomeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), holder: linkHolderSchema }),
  z.object({ ok: z.literal(false), holder: linkHolderSchema, error: plainText(1000) }),
]);
export type LinkWelcome = z.infer<typeof linkWelcomeSchema>;

/** The longest line either side sends on the socket (the web API's body bound and some room). */
export const MAX_LINK_LINE_BYTES = 4 * 1024 * 1024;
