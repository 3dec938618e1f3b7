/** The two IPC channels between main and preload: one invoke for API calls, one push for events. */
export const IPC_CALL = 'home-agent:call';
export const IPC_EVENT = 'home-agent:event';
export const IPC_NOTICE = 'home-agent:notice';
