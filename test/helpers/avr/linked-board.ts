import { mkdtemp, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildExample, type BuiltSketch, type Example } from './build-sketch.ts';
import { startSimavrBoard, type SimavrBoard } from './simavr-board.ts';

/** A simulated Uno reached through a link of the test's own, as a udev rule gives a real board a stable name. */
export interface LinkedBoard {
  readonly firmware: BuiltSketch;
  /** The stable path the app is given (a symlink to the current simavr's pseudo-terminal). */
  readonly path: string;
  /** The simavr running now (a new one after `restart`). */
  readonly board: SimavrBoard;
  /** Kills the simulator: the board is unplugged. */
  kill(): Promise<void>;
  /** Starts a new simavr (with a new pseudo-terminal) and re-points the link at it. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Builds `example` (with `id`, if given), runs it in simavr and links a stable path to its pseudo-terminal. */
export async function startLinkedBoard(options: { example: Example; id?: string }): Promise<LinkedBoard> {
  const firmware = await buildExample(options.example, options.id === undefined ? {} : { id: options.id });
  const folder = await mkdtemp(path.join(tmpdir(), 'home-agent-board-'));
  const link = path.join(folder, `${firmware.id}`);
  let board = await startSimavrBoard({ elfPath: firmware.elfPath });
  const point = async (target: string): Promise<void> => {
    // A new link renamed over the old one: the path never dangles half-made.
    const next = `${link}.next`;
    await symlink(target, next);
    await rename(next, link);
  };
  await point(board.ptyPath);
  return {
    firmware,
    path: link,
    get board() {
      return board;
    },
    kill: () => board.kill(),
    async restart() {
      board = await startSimavrBoard({ elfPath: firmware.elfPath });
      await point(board.ptyPath);
    },
    async close() {
      await board.kill();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
