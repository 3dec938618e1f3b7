// Types for fetch-electron-binary.mjs (plain JavaScript: `npm start` runs before any TypeScript loader).
export declare const FETCH_TIMEOUT_MS: number;
export type FetchResult = { ok: true } | { ok: false; reason: string };
export declare function fetchElectronBinary(options: {
  electronDir: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}): Promise<FetchResult>;
export declare function firstLine(text: string): string | undefined;
