import type { LocationQuery, RouteLocationRaw } from 'vue-router';

const KEY = 'readlib.console.bookList';

/**
 * The books list as the operator last saw it (filters, sort, page, page size: its URL query), kept for
 * the tab (sessionStorage), so "Back to the list" and a delete from the edit page return to it rather
 * than to the first page of the whole catalogue.
 */
export function rememberList(query: LocationQuery): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(query));
  } catch {
    // storage refused (private mode, quota): the list is found without its query
  }
}

/** Only the values a list query holds: strings (vue-router's array form is kept as its first). */
export function listQueryOf(saved: unknown): Record<string, string> {
  if (!saved || typeof saved !== 'object' || Array.isArray(saved)) return {};
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(saved)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') query[key] = first;
  }
  return query;
}

/** Where "Back to the list" goes: the books list with the query it had. */
export function listLocation(): RouteLocationRaw {
  let saved: unknown;
  try {
    saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
  } catch {
    saved = undefined;
  }
  return { name: 'books', query: listQueryOf(saved) };
}
