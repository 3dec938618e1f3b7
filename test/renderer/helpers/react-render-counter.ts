// Counts which components React rendered in each commit, from the commits it reports to a DevTools
// hook (what React's own Profiler in DevTools reads). Import this module before react-dom: React
// looks for the hook once, when it loads.

/** The parts of a React fiber this counter reads (React's internal shape, stable across 18 and 19). */
interface Fiber {
  type: unknown;
  flags: number;
  alternate: Fiber | null;
  child: Fiber | null;
  sibling: Fiber | null;
  memoizedProps: unknown;
}

/** React marks a fiber whose component ran in this render (ReactFiberFlags' PerformedWork). */
const PERFORMED_WORK = 1;

/** One component render: its function's name and the props it rendered with. */
export interface Render {
  name: string;
  props: Record<string, unknown>;
}

const renders: Render[] = [];
let previousTree = new Set<Fiber>();

(globalThis as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  isDisabled: false,
  renderers: new Map(),
  inject: () => 1,
  checkDCE: () => undefined,
  onScheduleFiberRoot: () => undefined,
  onCommitFiberUnmount: () => undefined,
  onPostCommitFiberRoot: () => undefined,
  onCommitFiberRoot(_renderer: number, root: { current: Fiber }) {
    const tree = new Set<Fiber>();
    const stack: Fiber[] = [root.current];
    while (stack.length > 0) {
      const fiber = stack.pop()!;
      tree.add(fiber);
      // A fiber kept from the last commit was not touched; a new one ran only if React says so.
      const rendered = !previousTree.has(fiber) && (fiber.alternate === null || (fiber.flags & PERFORMED_WORK) !== 0);
      if (rendered && typeof fiber.type === 'function')
        renders.push({ name: fiber.type.name, props: fiber.memoizedProps as Record<string, unknown> });
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child) stack.push(fiber.child);
    }
    previousTree = tree;
  },
};

/**
 * Every render counted since the last call, and starts counting afresh. The in-process project runs
 * a worker's files one after another in one module graph (vitest.config.ts, isolate: false), so the
 * first call of a test also returns what an earlier file drew: call it before what is counted.
 */
export function takeRenders(): Render[] {
  return renders.splice(0);
}
