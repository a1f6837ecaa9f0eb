import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading, logInWithForm } from './support/page-actions';
import { clients } from './support/seed';
import { OPERATOR, type Services } from './support/services';

const KEPT = 'Safeguarded Volume';

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  await admin.createBook({ fileName: 'safeguarded_1', title: KEPT, author: 'Sam Safe' });
}

describe.skipIf(!HAVE_BROWSER)('what keeps an operator from a mistake, and what they are told', () => {
  const s = consoleSuite({ seed });

  it('the delete confirmation: Enter, Enter deletes nothing; Escape still cancels', async () => {
    const page = s.page;
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/book/delete') deletes.push(request.url());
    });
    await s.openLoggedIn('books');
    await heading(page, 'Books');
    // opened from the keyboard, as the row's button is reached with Tab
    const button = page.getByRole('button', { name: `Delete: ${KEPT}` });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(en.books.confirmTitle).waitFor();
    // once the dialog has taken the focus, which is not on its Delete button
    await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]') !== null);
    const onDelete = await dialog
      .getByRole('button', { name: en.common.delete })
      .evaluate((el) => el === document.activeElement);
    expect(onDelete).toBe(false);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    expect(deletes).toEqual([]);
    expect(await dialog.isVisible()).toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(deletes).toEqual([]);
    await page.locator('[data-test=book-table]').getByText(KEPT).waitFor();
  });

  it("a new login attempt clears the last one's message", async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}login`);
    await logInWithForm(page, { username: OPERATOR.username, password: 'not the password' });
    const refused = page.getByRole('alert').filter({ hasText: en.login.refused });
    await refused.waitFor();

    await page.locator('#login-username').fill('');
    await page.locator('#login-password').fill('');
    await page.locator('#login-password').press('Enter');
    await page.getByRole('alert').filter({ hasText: en.login.required }).waitFor();
    expect(await refused.count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(1);
  });

  it('a wait the service asks for counts down, then says the operator may try again', async () => {
    const page = s.page;
    await page.route('**/user/login', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '3' },
        json: { code: -1, msg: 'too many login attempts', data: null },
      }),
    );
    await page.goto(`${s.services.consoleUrl}login`);
    await logInWithForm(page);
    const alert = page.getByRole('alert');
    await alert.getByText(en.errors.rate_limitedRetry.replace('{seconds}', '3')).waitFor();
    await alert.getByText(en.errors.rate_limitedRetry.replace('{seconds}', '1')).waitFor();
    await alert.getByText(en.errors.rate_limitedOver).waitFor({ timeout: 15_000 });
  });

  it('the browser tab is titled in the chosen language, and follows a change of it', async () => {
    const page = await s.newPage({ locale: 'zh-CN' });
    await page.goto(`${s.services.consoleUrl}login`);
    await page.getByRole('heading', { name: zhCN.login.title }).waitFor();
    expect(await page.title()).toBe(zhCN.app.title);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: en.login.title }).waitFor();
    expect(await page.title()).toBe(en.app.title);
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: zhCN.login.title }).waitFor();
    expect(await page.title()).toBe(zhCN.app.title);
  });
});
