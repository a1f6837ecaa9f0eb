/**
 * The operator's token, kept for the browser session (sessionStorage: gone when the tab closes, not
 * shared with other tabs). Storage may be disabled: the token then lives in memory only.
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
