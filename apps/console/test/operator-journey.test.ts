import { readFile } from 'node:fs/promises';
import { BOOK_LIST_SORT_FIELDS } from '@readlib/contracts';
import { parseEpub } from '@readlib/epub';
import { type AdminClient, type BookListSort, isApiError } from '@readlib/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, choose, columnTexts, heading, logInWithForm } from './support/page-actions';
import { REAL_EPUB } from './support/paths';
import { clients, GENERATED, KEYWORDS, READERS, seedLibrary } from './support/seed';
import { OPERATOR } from './support/services';

/** The book the journey uploads: a real EPUB 2 with a cover and an NCX table of contents. */
const UPLOADED = 'example-v2.epub';

describe.skipIf(!HAVE_BROWSER)('the operator journey in Chromium', () => {
  const s = consoleSuite({ seed: seedLibrary });
  let admin: AdminClient;
  beforeAll(async () => {
    ({ admin } = await clients(s.services));
  });

  it('starts in Chinese for a Chinese browser, switches to English, logs in and lands on the dashboard', async () => {
    const page = await s.newPage({ locale: 'zh-CN' });
    await page.goto(s.services.consoleUrl);
    await page.waitForURL(/\/console\/login\?redirect=/);
    await page.getByRole('heading', { name: '管理员登录' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.getByLabel('用户名').count()).toBe(1);

    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Operator login' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');

    await logInWithForm(page);
    await page.waitForURL(/\/console\/dashboard$/);
    await heading(page, 'Dashboard');
    // the choice is remembered: a reload stays in English
    await page.reload();
    await heading(page, 'Dashboard');
    expect(await page.locator('[data-test=operator-name]').textContent()).toBe(OPERATOR.username);
  });

  it('dashboard: totals, trends, categories, top books and searches, word cloud and map, per window', async () => {
    const page = s.page;
    const screen = answered(page, '/screen/data', { days: '30' });
    await s.openLoggedIn('dashboard');
    await screen;
    const totals = await admin.getDashboard();
    await page.locator('[data-test=total-book]').getByText(String(totals.book), { exact: true }).waitFor();
    expect(totals.book).toBe(4 + GENERATED.length);
    expect(await page.locator('[data-test=total-user]').textContent()).toBe(String(READERS.length));

    const data = await admin.getScreenData({ days: 30 });
    // each chart is drawn as SVG with its labels as text
    for (const chart of [
      'user-trend',
      'view-trend',
      'category-chart',
      'top-books-chart',
      'top-searches-chart',
    ]) {
      await page.locator(`[data-test=${chart}] svg`).waitFor();
    }
    const categoryChart = (await page.locator('[data-test=category-chart]').textContent()) ?? '';
    expect(categoryChart).toContain('Prose Shelf');
    expect(await columnTexts(page.locator('[data-test=top-books]'), 2)).toEqual(
      data.topBooks.map((b) => b.title),
    );
    // keywords as the service counts them (case-folded), most searched first
    expect(data.topSearches.map((k) => k.count)).toEqual(KEYWORDS.map((k) => k.times));
    expect(await columnTexts(page.locator('[data-test=top-searches]'), 2)).toEqual(
      data.topSearches.map((k) => k.keyword),
    );
    const cloud = page.locator('[data-test=word-cloud]');
    for (const { word } of await admin.getWordCloud({ days: 30 })) {
      await cloud.locator('text', { hasText: word }).first().waitFor();
    }

    // provinces spelled 广东省 and Guangdong meet on the map's 广东; cities with coordinates are dots
    await page.locator('[data-test=map-chart] svg path').first().waitFor();
    const map = await admin.getScreenMap({ days: 30 });
    expect(map.length).toBeGreaterThan(3);
    expect(await page.locator('[data-test=unplaced-regions]').count()).toBe(0);

    // another window asks the four screens again with it
    const week = answered(page, '/screen/data', { days: '7' });
    await choose(page, page.locator('[data-test=days-select]'), 'Last 7 days');
    expect((await week).status()).toBe(200);
  });

  it('books: filters, sorting by every sortable field, paging and covers', async () => {
    const page = s.page;
    await s.openLoggedIn('books');
    await heading(page, 'Books');
    const table = page.locator('[data-test=book-table]');
    await page
      .locator('[data-test=book-total]')
      .getByText(`${4 + GENERATED.length} books`)
      .waitFor();
    expect(await table.locator('.el-table__body tr').count()).toBe(20);

    // covers come from the reader service's /res/ and load under the console's CSP
    const cover = table.locator('img.cover').first();
    await cover.waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('img.cover')].every((img) => img.complete),
    );
    expect(await cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // the second page
    let listed = answered(page, '/book/list', { page: '2' });
    await page.locator('.el-pager li', { hasText: '2' }).click();
    await listed;
    await page.waitForURL(/page=2/);
    expect(await table.locator('.el-table__body tr').count()).toBe(4 + GENERATED.length - 20);

    // title and author filters (substrings), combined; the category filter
    listed = answered(page, '/book/list', { title: 'Volume 1', author: 'Odd' });
    await page.getByRole('textbox', { name: 'Title' }).fill('Volume 1');
    await page.getByRole('textbox', { name: 'Author' }).fill('Odd');
    await page.getByRole('button', { name: 'Search' }).click();
    await listed;
    await page.waitForURL(/title=Volume/);
    const expected = GENERATED.filter((b) => b.title.includes('Volume 1') && b.author.includes('Odd'));
    await page.locator('[data-test=book-total]').getByText(`${expected.length} books`).waitFor();
    expect((await columnTexts(table, 2)).sort()).toEqual(expected.map((b) => b.title).sort());

    await page.getByRole('button', { name: 'Reset' }).click();
    listed = answered(page, '/book/list', { category: 'Poetry Shelf' });
    await choose(page, page.locator('[data-test=category-filter]'), 'Poetry Shelf');
    await page.getByRole('button', { name: 'Search' }).click();
    await listed;
    const poetry = GENERATED.filter((b) => b.category === 'Poetry Shelf').length;
    await page.locator('[data-test=book-total]').getByText(`${poetry} books`).waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();

    // every sortable field, both ways: the table shows the service's order for that sort
    // (the contracts' list, so a field added there and not offered here fails this test)
    const sorts = BOOK_LIST_SORT_FIELDS;
    const fields = sorts.map((field) => en.books.fields[field]);
    const shows = async (sort: BookListSort) => {
      const want = (await admin.listBooks({ sort, pageSize: 20 })).data.map((b) => b.fileName);
      await page.waitForFunction(
        (names) =>
          [...document.querySelectorAll('[data-test=book-table] .el-table__body tr td:nth-child(7)')]
            .map((td) => td.textContent?.trim())
            .join('\n') === names.join('\n'),
        want,
      );
      expect(await columnTexts(table, 7), sort).toEqual(want);
    };
    let descending = true;
    for (const [i, label] of fields.entries()) {
      if (i > 0) {
        const answer = answered(page, '/book/list', { sort: `${descending ? '-' : '+'}${sorts[i]}` });
        await choose(page, page.locator('[data-test=sort-field]'), label);
        await answer;
      }
      for (const [direction, sign] of descending
        ? ([
            ['Ascending', '+'],
            ['Descending', '-'],
          ] as const)
        : ([
            ['Descending', '-'],
            ['Ascending', '+'],
          ] as const)) {
        const answer = answered(page, '/book/list', { sort: `${sign}${sorts[i]}` });
        await choose(page, page.locator('[data-test=sort-direction]'), direction);
        await answer;
        await shows(`${sign}${sorts[i]}`);
        descending = sign === '-';
      }
    }
    // a column header sorts too
    const byHeader = answered(page, '/book/list', { sort: '+author' });
    await table.locator('th', { hasText: 'Author' }).locator('.sort-caret.ascending').click();
    await byHeader;
  });

  it('upload: a real EPUB, its metadata, cover and table of contents shown before create, then create', async () => {
    const page = s.page;
    const bytes = await readFile(REAL_EPUB(UPLOADED));
    const parsed = await parseEpub(bytes);
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');

    // the upload is held back a moment so the progress bar can be seen
    await page.route('**/book/upload', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    await page
      .locator('[data-test=upload-drop] input[type=file]')
      .setInputFiles({ name: UPLOADED, mimeType: 'application/epub+zip', buffer: bytes });
    await page.locator('[data-test=upload-progress]').waitFor();
    expect(await page.locator('[data-test=upload-progress]').textContent()).toContain(UPLOADED);
    await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
    await page.locator('[data-test=upload-progress]').waitFor({ state: 'detached' });

    expect(await page.locator('#upload-title').inputValue()).toBe(parsed.metadata.title);
    expect(await page.locator('#upload-author').inputValue()).toBe(parsed.metadata.creators.join(', '));
    const cover = page.locator('[data-test=upload-cover]');
    await page.waitForFunction(
      () => (document.querySelector('[data-test=upload-cover]') as HTMLImageElement)?.complete,
    );
    expect(await cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const labels = await page.locator('[data-test=contents-tree] .el-tree-node__label').allTextContents();
    expect(labels).toEqual(parsed.contents.map((c) => c.label));
    // the stored files of the upload, sent back unchanged at create
    const fileName = (await page.locator('[data-test=upload-file-name]').textContent())?.split(': ')[1] ?? '';
    expect(fileName).toMatch(/^[A-Za-z0-9_]+$/);
    expect(await page.locator('#upload-filePath').inputValue()).toBe(`epub/${fileName}.epub`);
    expect(await page.locator('#upload-unzipPath').inputValue()).toBe(`unzip/${fileName}`);
    expect(await page.locator('#upload-originalName').inputValue()).toBe(UPLOADED);

    // a new category by name, an edited title
    await page.locator('#upload-title').fill('Journey Example');
    await page.locator('label.el-radio', { hasText: 'New category' }).click();
    await page.locator('#upload-new-category').fill('Console Journey');
    await page.locator('[data-test=create-book]').click();
    await page.waitForURL(/\/console\/books\?title=Journey/);
    const row = page.locator('[data-test=book-table] .el-table__body tr', { hasText: 'Journey Example' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Console Journey');
    const created = (await admin.listBooks({ title: 'Journey Example' })).data;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      fileName,
      categoryText: 'Console Journey',
      author: parsed.metadata.creators.join(', '),
    });
    expect(await admin.getBook({ fileName })).toMatchObject({
      filePath: `epub/${fileName}.epub`,
      unzipPath: `unzip/${fileName}`,
      originalName: UPLOADED,
    });
  });

  it('edit: every field update takes, an existing category, the table of contents; delete with confirmation', async () => {
    const page = s.page;
    const [book] = (await admin.listBooks({ title: 'Journey Example' })).data;
    expect(book).toBeDefined();
    await s.openLoggedIn(`books?title=Journey`);
    await page.locator('[data-test=book-table]').getByRole('link', { name: 'Edit: Journey Example' }).click();
    await heading(page, 'Edit book');
    await page.locator('[data-test=contents-tree] .el-tree-node').first().waitFor();
    const before = await admin.getBook({ fileName: book!.fileName });
    expect(await page.locator('#edit-rootFile').inputValue()).toBe(before.rootFile);

    await page.locator('#edit-title').fill('Journey Edited');
    await page.locator('#edit-author').fill('An Editor');
    await page.locator('#edit-publisher').fill('Console Press');
    await page.locator('#edit-language').fill('fr');
    await choose(page, page.locator('[data-test=category-select]'), 'Poetry Shelf');
    const saved = answered(page, '/book/update');
    await page.locator('[data-test=save-book]').click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Saved.').waitFor();
    const after = await admin.getBook({ fileName: book!.fileName });
    expect(after).toMatchObject({
      title: 'Journey Edited',
      author: 'An Editor',
      publisher: 'Console Press',
      language: 'fr',
      categoryText: 'Poetry Shelf',
      rootFile: before.rootFile,
    });

    // the stored files' paths are read-only until asked for, with a warning; the service checks them
    // and explains a refusal
    expect(await page.locator('#edit-rootFile').getAttribute('readonly')).not.toBeNull();
    await page.locator('[data-test=advanced-fields]').click();
    await page.locator('[data-test=advanced-warning]').waitFor();
    expect(await page.locator('#edit-rootFile').getAttribute('readonly')).toBeNull();
    await page.locator('#edit-rootFile').fill('../outside.opf');
    await page.locator('[data-test=save-book]').click();
    await page
      .getByRole('alert')
      .getByText(/The service says: .*rootFile/)
      .waitFor();
    await page.locator('#edit-rootFile').fill(before.rootFile);

    // delete: cancelled first, then confirmed
    await page.locator('[data-test=delete-book]').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Delete “Journey Edited”?', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await admin.getBook({ fileName: book!.fileName })).title).toBe('Journey Edited');
    await page.locator('[data-test=delete-book]').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    // back to the list as it was left
    await page.waitForURL(/\/console\/books\?title=Journey$/);
    const gone = await admin.getBook({ fileName: book!.fileName }).catch((err: unknown) => err);
    expect(isApiError(gone) && gone.kind).toBe('not_found');
  });

  it('categories with their counts, and the operator profile', async () => {
    const page = s.page;
    await s.openLoggedIn('categories');
    await heading(page, 'Categories');
    const categories = await admin.listCategories();
    const table = page.locator('[data-test=category-table]');
    await table.locator('.el-table__body tr').first().waitFor();
    expect(await columnTexts(table, 2)).toEqual(categories.map((c) => c.label));
    expect(await columnTexts(table, 3)).toEqual(categories.map((c) => String(c.num)));
    await table
      .getByRole('row', { name: /Poetry Shelf/ })
      .getByRole('link', { name: 'Show books' })
      .click();
    await page.waitForURL(/books\?category=Poetry/);

    await page.getByRole('link', { name: 'Profile' }).click();
    await heading(page, 'My profile');
    const me = await admin.getUserInfo();
    expect(await page.locator('[data-test=profile-nickname]').textContent()).toBe(me.nickname);
    expect(await page.locator('[data-test=profile]').textContent()).toContain(me.roles[0]);
  });
});
