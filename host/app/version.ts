/** The app's version, shown by `app/info` and `--version`. Kept in step with package.json. */
export const HOME_AGENT_VERSION = '0.1.0';
