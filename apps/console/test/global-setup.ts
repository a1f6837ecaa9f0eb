import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSER_REQUIRED, HAVE_BROWSER, NO_BROWSER_MESSAGE } from './support/browser';
import { CONSOLE_DIST } from './support/paths';

/** Says plainly, once, why browser tests would not run, and fails where they must. */
export default function setup(): void {
  if (!HAVE_BROWSER) {
    if (BROWSER_REQUIRED) throw new Error(NO_BROWSER_MESSAGE.replace('SKIPPED', 'cannot run'));
    console.warn(`\n${NO_BROWSER_MESSAGE}\n`);
    return;
  }
  if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
    throw new Error(
      `the console is not built (${CONSOLE_DIST}): run pnpm --filter @readlib/console build, or pnpm test through turbo, which builds it first`,
    );
  }
}
