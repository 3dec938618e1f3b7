import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from '../state/create-app-store.ts';

/** The store of this page, provided once at the root. */
export const AppStoreContext = createContext<AppStore | null>(null);

/** Selects the smallest piece of state a component needs; wrap derived objects in `useShallow`. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(AppStoreContext);
  if (!store) throw new Error('useAppStore needs an AppStoreContext provider above it.');
  return useStore(store, selector);
}
