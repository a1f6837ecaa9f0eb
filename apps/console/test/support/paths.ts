import { fileURLToPath } from 'node:url';

/** The console's build, as the admin service serves it in production. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
/** Screenshots of failed browser tests (gitignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));
/** The real EPUB fixtures of the epub package. */
export const REAL_EPUB = (name: string) =>
  fileURLToPath(new URL(`../../../../packages/epub/fixtures/real/${name}`, import.meta.url));
