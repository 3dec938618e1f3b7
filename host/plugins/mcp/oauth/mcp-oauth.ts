import { randomBytes } from 'node:crypto';
import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { LoopbackRedirect, type RedirectAnswer } from './loopback-redirect.ts';
import type { StoredOAuth } from './oauth-file.ts';
import type { OAuthStore } from './oauth-store.ts';
import { deadlineSignal } from '../../../../core/text/deadline-signal.ts';

/** Sign-ins in a row the server may ask for without accepting one, before the host stops asking the person. */
export const MAX_SIGN_INS_UNUSED = 3;

/** A pre-registered client and the scopes mcp.json names for a server (its secret already read from `${VAR}`). */
export interface McpOAuthConfig {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
}

/** A server needs its person to sign in: where to send the browser, and whether an earlier sign-in ran out. */
export interface McpSignInRequest {
  plugin: string;
  url: string;
  again: boolean;
}

/**
 * What opens a sign-in for the person (the window: the system browser). Without one the Plugins tab
 * shows the link and the terminal has `home-agent plugins login mcp-NAME`; the conformance client's
 * fetches the address and follows the redirect as a browser would.
 */
export type McpSignInFrontEnd = (request: McpSignInRequest) => void;

/**
 * OAuth 2.1 for one Streamable HTTP server, through the MCP SDK's client auth (`auth()`): metadata
 * discovery, PKCE, dynamic registration or a client ID metadata document or a pre-registered client,
 * scopes from `WWW-Authenticate` (step-up included), refresh. It is the SDK's OAuthClientProvider:
 * tokens and the registration live in its store (the OS keychain, else an owner-only file), the PKCE verifier
 * and state only in memory; the redirect comes back to a loopback listener on 127.0.0.1, started at
 * the server's first 401 or 403.
 */
export class McpOAuth {
  /** The address the person's browser must open to sign in, while a sign-in is needed. */
  authorizationUrl: string | undefined;
  /** The sign-in needed is a renewal: the server refused the tokens kept and they could not be refreshed. */
  again = false;
  /** Sign-ins completed here: a request refused before the latest one is sent again at once. */
  signIns = 0;
  /** Sign-ins asked for since the server last accepted one (`accepted`): bounded, so a server that never does is not asked for ever. */
  private asked = 0;

  readonly provider: OAuthClientProvider;
  private readonly loopback: LoopbackRedirect;
  private readonly signedInListeners = new Set<() => void>();
  private verifier: string | undefined;
  /** The server refused the tokens kept (they were dropped): the next sign-in is a renewal. */
  private refused = false;
  private expectedState: string | undefined;
  /** What the server's last challenge said: where its metadata is, and the scope it wants. */
  private challenge: { resourceMetadataUrl?: URL; scope?: string } = {};
  private discovery: Awaited<ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>>;

  constructor(
    private readonly options: {
      plugin: string;
      serverUrl: string;
      /** Where its sign-in is kept (the OS keychain, or the owner-only `oauthFileOf` file). */
      store: OAuthStore;
      config?: McpOAuthConfig;
      /** A client ID metadata document's URL, used where the authorization server supports them. */
      clientMetadataUrl?: string;
      /** How the person signs in from the terminal, for messages. */
      signInCommand: string;
      frontEnd?: McpSignInFrontEnd;
    },
  ) {
    this.loopback = new LoopbackRedirect((answer) => this.redirected(answer));
    this.provider = this.makeProvider();
  }

  /** Runs `listener` after each sign-in completes. */
  onSignedIn(listener: () => void): () => void {
    this.signedInListeners.add(listener);
    return () => this.signedInListeners.delete(listener);
  }

  /**
   * The server answered 401 or 403: keep what its `WWW-Authenticate` says and have the loopback
   * listener ready, since the SDK's `auth()` reads the redirect address next.
   */
  async challenged(response: Response): Promise<void> {
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    this.challenge = {
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
    };
    await this.loopback.listen();
  }

  /** Starts a sign-in without a request to the server first (the terminal's `plugins login`): the authorization address. */
  async begin(): Promise<string> {
    await this.probe();
    const result = await auth(this.provider, {
      serverUrl: this.options.serverUrl,
      ...this.challenge,
    });
    if (result === 'AUTHORIZED') return '';
    if (this.authorizationUrl === undefined) throw new Error('the authorization server gave no address to sign in at');
    return this.authorizationUrl;
  }

  /** Signs out: the tokens and registration kept for the server go. True when there were some. */
  signOut(): boolean {
    this.authorizationUrl = undefined;
    this.again = false;
    this.discovery = undefined;
    return this.options.store.remove();
  }

  /** The server answered with the tokens kept: sign-in works again. */
  accepted(): void {
    this.asked = 0;
  }

  /** Where its tokens are kept, in words. */
  get keptIn(): string {
    return this.options.store.keptIn;
  }

  /** How the person signs in from the terminal. */
  get signInCommand(): string {
    return this.options.signInCommand;
  }

  /** Stops the loopback listener (the server was turned off); the next challenge starts it again. */
  stopListening(): Promise<void> {
    this.asked = 0;
    return this.loopback.close();
  }

  /** Asks the server once without a token, to read its challenge (where its metadata is, which scope). */
  private async probe(): Promise<void> {
    const response = await fetch(this.options.serverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'home-agent', version: '0' } },
      }),
      signal: deadlineSignal(10_000),
    });
    await response.body?.cancel();
    await this.challenged(response);
  }

  /** The browser came back: the state must be ours; the code is exchanged for tokens (PKCE), then the server is used again. */
  private async redirected(answer: RedirectAnswer): Promise<string> {
    if (this.expectedState === undefined) throw new Error('No sign-in is waiting here. Start it again.');
    if ('error' in answer) throw new Error(`The authorization server did not sign you in (${answer.error}).`);
    if (answer.state !== this.expectedState)
      throw new Error('This answer belongs to another sign-in (its state does not match). Start it again.');
    this.expectedState = undefined;
    const result = await auth(this.provider, {
      serverUrl: this.options.serverUrl,
      authorizationCode: answer.code,
      ...this.challenge,
    });
    if (result !== 'AUTHORIZED') throw new Error('The sign-in did not finish. Start it again.');
    this.authorizationUrl = undefined;
    this.again = false;
    this.refused = false;
    this.signIns += 1;
    for (const listener of [...this.signedInListeners]) listener();
    return `Signed in to ${this.options.plugin}. You can close this page.`;
  }

  private read(): StoredOAuth {
    return this.options.store.read();
  }

  private write(change: (stored: StoredOAuth) => StoredOAuth): void {
    this.options.store.write(change(this.read()));
  }

  private makeProvider(): OAuthClientProvider {
    const { config } = this.options;
    const loopback = this.loopback;
    const preRegistered: OAuthClientInformationMixed | undefined =
      config?.clientId !== undefined
        ? {
            client_id: config.clientId,
            ...(config.clientSecret !== undefined ? { client_secret: config.clientSecret } : {}),
          }
        : undefined;
    return {
      get redirectUrl() {
        return loopback.redirectUrl;
      },
      ...(this.options.clientMetadataUrl !== undefined ? { clientMetadataUrl: this.options.clientMetadataUrl } : {}),
      get clientMetadata(): OAuthClientMetadata {
        const redirect = loopback.redirectUrl;
        return {
          client_name: 'Home Agent',
          redirect_uris: redirect !== undefined ? [redirect] : [],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: preRegistered?.client_secret !== undefined ? 'client_secret_basic' : 'none',
          ...(config?.scopes !== undefined && config.scopes.length > 0 ? { scope: config.scopes.join(' ') } : {}),
        };
      },
      state: () => {
        this.expectedState = randomBytes(16).toString('base64url');
        return this.expectedState;
      },
      clientInformation: () => {
        if (preRegistered) return preRegistered;
        const stored = this.read().clientInformation;
        if (stored === undefined) return undefined;
        // A registration made for another redirect address (an earlier listener's port) is made again.
        const uris = (stored as { redirect_uris?: unknown }).redirect_uris;
        const redirect = this.loopback.redirectUrl;
        if (Array.isArray(uris) && redirect !== undefined && !uris.includes(redirect)) return undefined;
        return stored as OAuthClientInformationMixed;
      },
      saveClientInformation: (information) => {
        if (preRegistered) return;
        this.write((stored) => ({ ...stored, clientInformation: { ...information } }));
      },
      tokens: () => this.read().tokens as OAuthTokens | undefined,
      saveTokens: (tokens) => this.write((stored) => ({ ...stored, tokens: { ...tokens } })),
      redirectToAuthorization: (url) => {
        // Tokens kept but refused, and not renewed: the person signs in again.
        // Shown as a link and opened in a browser: only a web address, never `javascript:` or a file.
        if (url.protocol !== 'https:' && url.protocol !== 'http:')
          throw new Error(`the authorization server's sign-in address is not a web address (${url.protocol})`);
        if (this.asked >= MAX_SIGN_INS_UNUSED)
          throw new Error(
            `it asked for sign-in ${this.asked} times in a row and refused each one (it may want a permission it never grants): tell its owner, then turn the plugin off and on to try again`,
          );
        this.asked += 1;
        this.again = this.refused || this.read().tokens !== undefined;
        this.authorizationUrl = url.toString();
        this.options.frontEnd?.({ plugin: this.options.plugin, url: this.authorizationUrl, again: this.again });
      },
      saveCodeVerifier: (verifier) => {
        this.verifier = verifier;
      },
      codeVerifier: () => {
        if (this.verifier === undefined) throw new Error('no sign-in was started here');
        return this.verifier;
      },
      invalidateCredentials: (scope) => {
        if (scope === 'verifier') this.verifier = undefined;
        if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
        if ((scope === 'tokens' || scope === 'all') && this.read().tokens !== undefined) {
          this.refused = true;
          this.write((stored) => ({ ...stored, tokens: undefined }));
        }
        if ((scope === 'client' || scope === 'all') && !preRegistered)
          this.write((stored) => ({ ...stored, clientInformation: undefined }));
      },
      saveDiscoveryState: (state) => {
        this.discovery = state;
      },
      discoveryState: () => this.discovery,
    };
  }
}
