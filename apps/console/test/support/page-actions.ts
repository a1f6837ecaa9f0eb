import type { Locator, Page } from 'playwright-core';
import { OPERATOR } from './services';

/** Waits for the page's main heading, the sign that a console page has been drawn. */
export async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** Logs in through the login form, as an operator types it. */
export async function logInWithForm(page: Page, creds = OPERATOR): Promise<void> {
  await page.locator('#login-username').fill(creds.username);
  await page.locator('#login-password').fill(creds.password);
  await page.getByRole('button', { name: /^(Log in|登录)$/ }).click();
}

/**
 * Opens an Element Plus select, picks the option with exactly this text and waits until it shows it.
 * A click that lands while the dropdown is still opening is dropped by the select (seen on a loaded
 * machine: the list open, the option not taken), so an option not taken is clicked again, as an
 * operator would.
 */
export async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  const item = page.locator('.el-select-dropdown__item:visible').getByText(option, { exact: true });
  const shown = select.locator('.el-select__selected-item:not(.is-hidden)', { hasText: option }).first();
  for (let attempt = 1; attempt < 3; attempt++) {
    await item.click();
    if (
      await shown.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      return;
    if (!(await item.isVisible())) await select.click();
  }
  await item.click();
  await shown.waitFor();
}

/** The texts of one column of a table (an Element Plus one or a plain one), top to bottom. */
export async function columnTexts(table: Locator, column: number): Promise<string[]> {
  const cells = table.locator(`tbody tr td:nth-child(${column})`);
  return (await cells.allTextContents()).map((t) => t.trim());
}

/** Waits until the admin API has answered a request whose path and query match. */
export function answered(page: Page, path: string, query: Record<string, string> = {}) {
  return page.waitForResponse((res) => {
    const url = new URL(res.url());
    return (
      url.pathname === path &&
      Object.entries(query).every(([key, value]) => url.searchParams.get(key) === value)
    );
  });
}
