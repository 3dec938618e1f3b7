/** The parts of `WebContents` the guard uses. */
export interface GuardedContents {
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * No navigation away from the app and no new windows; https links open in the system browser.
 */
export function guardNavigation(contents: GuardedContents, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) openExternal(url);
    return { action: 'deny' };
  });
}
