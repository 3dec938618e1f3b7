import { useState } from 'react';
import type { PluginSummary } from '../../../state/plugins-slice.ts';
import { AriaDisabledButton } from '../../aria-disabled-button.tsx';
import { ConfirmQuestion } from '../../confirm-question.tsx';
import { useAppStore } from '../../use-app-store.ts';
import './mcp-server-state.css';

const STATUS_WORDS = {
  connecting: 'Connecting…',
  ready: 'Ready',
  failed: 'Failed',
  'sign-in': 'Sign-in needed',
} as const;

/**
 * What an MCP server's plugin row shows besides the common parts: connecting / ready / failed with
 * the reason, the end of its stderr, what the person should know (a secret written into the
 * config, tools left out, tools not covered by trust), and whether the person trusts it — trusting
 * asks first, since the server's read-only tools then run unasked.
 */
export function McpServerState(props: { plugin: PluginSummary }) {
  const { plugin } = props;
  const pending = useAppStore((state) => state.pluginTrust.pending !== undefined);
  const error = useAppStore((state) =>
    state.pluginTrust.error?.name === plugin.name ? state.pluginTrust.error.message : undefined,
  );
  const setPluginTrusted = useAppStore((state) => state.setPluginTrusted);
  const [asking, setAsking] = useState(false);
  const trustButtonId = `mcp-trust-${plugin.name}`;
  const titleId = `mcp-trust-title-${plugin.name}`;
  return (
    <div className="mcp-server" data-testid="mcp-server" data-plugin={plugin.name}>
      {plugin.enabled && plugin.status !== undefined && (
        <p className={`mcp-status mcp-status-${plugin.status}`} data-testid="mcp-status" data-status={plugin.status}>
          <span className="mcp-status-word">{STATUS_WORDS[plugin.status]}</span>
          {plugin.reason !== undefined && <span className="mcp-status-reason">: {plugin.reason}</span>}
        </p>
      )}
      {plugin.enabled && plugin.status === 'sign-in' && plugin.signInUrl !== undefined && (
        // The server's authorization page, in a new tab; its loopback redirect finishes the sign-in.
        <a
          className="button button-small mcp-sign-in"
          href={plugin.signInUrl}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="mcp-sign-in"
        >
          {plugin.signInAgain ? 'Sign in again' : 'Sign in'}
        </a>
      )}
      {(plugin.warnings ?? []).length > 0 && (
        <ul className="mcp-warnings" aria-label={`Problems of ${plugin.name}`} data-testid="mcp-warnings">
          {(plugin.warnings ?? []).map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      {plugin.stderr !== undefined && (
        <details className="mcp-stderr">
          <summary>Its output (stderr)</summary>
          <pre data-testid="mcp-stderr">{plugin.stderr}</pre>
        </details>
      )}
      <div className="mcp-trust">
        <span className="mcp-trust-state" data-testid="mcp-trusted" data-trusted={String(plugin.trusted === true)}>
          {plugin.trusted ? 'Trusted: its read-only tools run without asking' : 'Not trusted: every tool asks first'}
        </span>
        <AriaDisabledButton
          id={trustButtonId}
          className="button button-small"
          unavailable={pending}
          aria-expanded={plugin.trusted ? undefined : asking}
          onPress={() => (plugin.trusted ? void setPluginTrusted(plugin.name, false) : setAsking(true))}
        >
          {plugin.trusted ? 'Stop trusting' : 'Trust…'}
        </AriaDisabledButton>
      </div>
      {asking && !plugin.trusted && (
        <ConfirmQuestion
          className="plugin-warning"
          role="alertdialog"
          aria-labelledby={titleId}
          data-testid="mcp-trust-question"
          actionsClassName="plugin-warning-actions"
          keep={{ label: 'Cancel', testId: 'mcp-trust-cancel' }}
          confirm={{ label: 'Trust it', testId: 'mcp-trust-confirm' }}
          onKeep={() => {
            setAsking(false);
            document.getElementById(trustButtonId)?.focus();
          }}
          onConfirm={() => {
            setAsking(false);
            void setPluginTrusted(plugin.name, true).then(() => document.getElementById(trustButtonId)?.focus());
          }}
        >
          <p className="plugin-warning-title" id={titleId}>
            Trust {plugin.name}?
          </p>
          <p className="plugin-warning-text">
            Its tools that say they only read will run without asking, alongside other calls. Tools that may change
            something still ask. Trust covers the tools as they are now: a tool that changes later asks again.
          </p>
        </ConfirmQuestion>
      )}
      {error !== undefined && (
        <p className="side-error" role="alert" data-testid="mcp-trust-error">
          {error}
        </p>
      )}
    </div>
  );
}
