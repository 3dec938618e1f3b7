// Types for electron-fetch-memo.mjs (plain JavaScript: `npm start` runs before any TypeScript loader).
export declare const RETRY_AFTER_MS: number;
export declare function fetchKey(version: string, env: NodeJS.ProcessEnv): string;
export declare function recentFetchFailure(
  memoFile: string,
  key: string,
  now?: number,
): { failedAt: number; reason: string } | undefined;
export declare function rememberFetchFailure(memoFile: string, key: string, reason: string, now?: number): void;
export declare function forgetFetchFailure(memoFile: string): void;
