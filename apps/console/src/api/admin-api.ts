import { type ApiError, createAdminClient } from '@readlib/sdk';
import { storedToken, storeToken } from '../session/session';

let sessionEnded: (error: ApiError) => void = () => {};

/**
 * The one client of the admin API, on this page's origin (the admin service serves the console). A
 * call refused with 401 / code -2 forgets the token and hands over to `onSessionEnded` (the router sends
 * the operator to the login page, then back); the call itself rejects with kind `unauthorized`.
 */
export const api = createAdminClient({
  baseUrl: window.location.origin,
  token: storedToken(),
  onUnauthorized: (error) => {
    storeToken(undefined);
    api.setToken(undefined);
    sessionEnded(error);
  },
});

export function onSessionEnded(handler: (error: ApiError) => void): void {
  sessionEnded = handler;
}

/** Keeps a fresh token for the calls that follow and for reloads of this tab. */
export async function logIn(username: string, password: string): Promise<void> {
  const { token } = await api.login(username, password);
  storeToken(token);
}

export function logOut(): void {
  storeToken(undefined);
  api.setToken(undefined);
}

export const loggedIn = (): boolean => api.getToken() !== undefined;
