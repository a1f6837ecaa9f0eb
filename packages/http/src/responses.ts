import { AdminError, ReaderError, ref } from '@readlib/contracts';
import type { Family } from './envelope.js';

/** Response schemas of the given error statuses, so every route declares every status it can return. */
export function errorResponses(family: Family, statuses: number[]) {
  const schema = ref(family === 'reader' ? ReaderError : AdminError);
  return Object.fromEntries(statuses.map((s) => [s, schema])) as Record<number, typeof schema>;
}
