// Vitest's global setup: compiles the entries tests start as processes once for the whole run
// (compiled-entries.ts); the workers, started after it, find them through the environment.
import { compileEntriesForRun } from './compile-test-entries.ts';

export default compileEntriesForRun;
