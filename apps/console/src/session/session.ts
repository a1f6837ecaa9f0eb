/**
 * This tab's copy of the operator's token (sessionStorage: a reload keeps it, closing the tab drops
 * it); the console's other open tabs hand theirs to a new tab (tab-channel.ts). Storage may be
 * disabled: the token then lives in memory only.
 */
const KEY = 'readlib.console.token';
let memory: string | undefined;

export function storedToken(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return memory;
  }
}

export function storeToken(token: string | undefined): void {
  memory = token;
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // kept in memory only
  }
}
