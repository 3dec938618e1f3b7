// Types for ui-build-state.mjs (plain JavaScript: `npm start` runs before any TypeScript loader).
export declare const UI_INPUTS: readonly string[];
export type UiBuildState = { fresh: true } | { fresh: false; reason: string };
export declare function uiBuildState(root: string): UiBuildState;
