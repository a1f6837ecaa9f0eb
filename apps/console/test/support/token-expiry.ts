import type { Page } from 'playwright-core';

/**
 * The services' settings for a suite whose tokens expire for real during a test: long enough that a
 * page drawn on a loaded machine still makes its first calls with a live token, short enough to wait
 * out. Tests wait with `untilTokenExpired`, never a fixed pause, so neither end depends on speed.
 */
export const SHORT_LIVED_TOKENS = { JWT_EXPIRES_IN: '10s' };

/**
 * Waits until the token the page holds is past its `exp`, with a second's margin for the services'
 * whole-second check (they run on this machine's clock).
 */
export async function untilTokenExpired(page: Page): Promise<void> {
  const token = await page.evaluate(() => sessionStorage.getItem('readlib.console.token'));
  if (!token) throw new Error('the page holds no token to wait out');
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  const left = (payload as { exp: number }).exp * 1000 - Date.now();
  await page.waitForTimeout(Math.max(0, left) + 1_000);
}
