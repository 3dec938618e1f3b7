import type { StateCreator } from 'zustand/vanilla';
import type { StandingApprovalSummary } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import type { LoadStatus } from './load-status.ts';
import { messageOf } from './message-of.ts';
import { newestWins } from './newest-wins.ts';

/** Every standing approval ("Always allow") of the host's data folder, as it last listed them. */
export interface StandingApprovalsSlice {
  standingApprovals: StandingApprovalSummary[];
  standingApprovalsStatus: LoadStatus;
  standingApprovalsError: string | null;
  refreshStandingApprovals(): Promise<void>;
}

/** The slice, with the API its actions call. */
export function createStandingApprovalsSlice(api: ApiClient): StateCreator<AppState, [], [], StandingApprovalsSlice> {
  const lookUps = newestWins();
  return (set) => ({
    standingApprovals: [],
    standingApprovalsStatus: 'idle',
    standingApprovalsError: null,
    async refreshStandingApprovals() {
      set({ standingApprovalsStatus: 'loading' });
      await lookUps.run({
        request: () => api.call('approvals/list', {}),
        onAnswer: ({ approvals }) =>
          set({ standingApprovals: approvals, standingApprovalsStatus: 'loaded', standingApprovalsError: null }),
        onError: (error) =>
          set({
            standingApprovalsStatus: 'failed',
            standingApprovalsError: `Could not list the standing approvals: ${messageOf(error)}`,
          }),
      });
    },
  });
}
