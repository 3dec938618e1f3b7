/** How the last look-up of something the host lists went; `idle`: never asked yet. */
export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';
