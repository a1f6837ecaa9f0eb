import { type ApiError, createAdminClient } from '@readlib/sdk';
import { readonly, shallowRef } from 'vue';
import { storedToken, storeToken } from '../session/session';
import { openTabChannel } from '../session/tab-channel';

export interface SessionHandlers {
  /**
   * The token was refused (expired, revoked: `error`) or another tab logged out: none is left. May
   * resolve with a new token, which a refused call is sent again with.
   */
  ended(error?: ApiError): Promise<string | undefined> | undefined;
  /** another tab logged in: this tab has its token now */
  signedInElsewhere(token: string): void;
}

let handlers: SessionHandlers = { ended: () => undefined, signedInElsewhere: () => {} };

/**
 * The one client of the admin API, on this page's origin (the admin service serves the console). A
 * call refused with 401 / code -2 forgets the token and hands over to `ended` (the router asks for the
 * login again, in place or on the login page); the call is sent again with the new token it may resolve
 * with, else rejects with kind `unauthorized`.
 */
export const api = createAdminClient({
  baseUrl: window.location.origin,
  token: storedToken(),
  onUnauthorized: (error) => {
    keep(undefined);
    return handlers.ended(error);
  },
});

const tabs = openTabChannel({
  current: () => api.getToken(),
  signedIn: (token) => {
    keep(token);
    handlers.signedInElsewhere(token);
  },
  signedOut: () => {
    if (!loggedIn()) return;
    keep(undefined);
    void handlers.ended();
  },
});

const current = shallowRef(api.getToken());
/** The token this tab sends, as Vue sees it: what shows the signed-in operator follows it. */
export const sessionToken = readonly(current);

/** The token this tab sends, keeps for its reloads and answers new tabs with (none: signed out). */
function keep(token: string | undefined): void {
  storeToken(token);
  api.setToken(token);
  current.value = token;
  tabs.mark(token !== undefined);
}

export function onSessionChange(next: SessionHandlers): void {
  handlers = next;
}

export const loggedIn = (): boolean => api.getToken() !== undefined;

if (loggedIn()) tabs.mark(true);

/**
 * Settled once this tab knows whether it is signed in: at once with a token of its own (a reload),
 * else once a console tab open in this browser has handed it one, or none has.
 */
export const sessionKnown: Promise<void> = loggedIn()
  ? Promise.resolve()
  : tabs.ask().then((token) => {
      if (token && !loggedIn()) keep(token);
    });

/** Keeps a fresh token for the calls that follow, for reloads of this tab and for the other tabs. */
export async function logIn(username: string, password: string): Promise<string> {
  const { token } = await api.login(username, password);
  keep(token);
  tabs.tell(token);
  return token;
}

/**
 * Forgets the token here and in every console tab of this browser, then has the service refuse it (and
 * the operator's other tokens) from then on: a copy of it taken from this browser no longer works. The
 * call goes out with a client of its own, so a refusal of it (a session already ended) asks for no login.
 */
export async function logOut(): Promise<void> {
  const token = api.getToken();
  keep(undefined);
  tabs.tell(undefined);
  if (token === undefined) return;
  await createAdminClient({ baseUrl: window.location.origin, token })
    .logout()
    .catch(() => {});
}
