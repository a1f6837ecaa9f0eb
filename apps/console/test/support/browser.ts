import { existsSync } from 'node:fs';
import { type Browser, type BrowserContextOptions, chromium } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs the `chromium` package), or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const HAVE_BROWSER = existsSync(CHROMIUM);
/** Where a missing browser fails the run instead of skipping the browser tests. */
export const BROWSER_REQUIRED = process.env.CI === 'true' || process.env.REQUIRE_BROWSER === '1';

export const NO_BROWSER_MESSAGE =
  `Browser tests SKIPPED: no Chromium at ${CHROMIUM}. Install Debian's chromium package ` +
  '(apt-get install chromium) or set CHROMIUM_PATH; CI=true or REQUIRE_BROWSER=1 make this a failure.';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A fresh browser profile: English unless the test asks for another language. */
export const contextOptions = (extra: BrowserContextOptions = {}): BrowserContextOptions => ({
  locale: 'en-US',
  viewport: { width: 1360, height: 900 },
  ...extra,
});
