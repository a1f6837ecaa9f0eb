import { makeEpub } from '@readlib/epub/testing';
import type { AdminBook, BookPage } from '@readlib/sdk';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DUPLICATE_PAGES } from '../src/books/duplicate';
import { en } from '../src/i18n/en.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading } from './support/page-actions';
import { clients } from './support/seed';
import type { Services } from './support/services';

/** The book already in the catalogue: the oldest of those with "Poems" in the title. */
const SAME = { fileName: 'poems_same', title: 'Poems', author: 'Anonymous', publisher: 'Folio Society' };
/** Newer books of the same author with the title in theirs: more than one page of 100. */
const NEWER = 130;

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  await admin.createBook(SAME);
  for (let i = 1; i <= NEWER; i++)
    await admin.createBook({
      fileName: `poems_${i}`,
      title: `Poems, volume ${i}`,
      author: SAME.author,
      publisher: SAME.publisher,
    });
}

async function upload(page: Page, book: { title: string; author: string; publisher: string }) {
  const epub = makeEpub({
    title: book.title,
    creators: [book.author],
    publisher: book.publisher,
    chapters: [{ title: 'One' }],
  });
  await page
    .locator('[data-test=upload-drop] input[type=file]')
    .setInputFiles({ name: 'upload.epub', mimeType: 'application/epub+zip', buffer: epub });
  await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
}

/** The list requests (their queries) the page sends from now on. */
function listQueries(page: Page): URLSearchParams[] {
  const sent: URLSearchParams[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/book/list') sent.push(url.searchParams);
  });
  return sent;
}

describe.skipIf(!HAVE_BROWSER)('a duplicate upload in a large catalogue', () => {
  const s = consoleSuite({ seed });

  it('is warned of when the book already there is past the first page of similar books', async () => {
    const page = s.page;
    const sent = listQueries(page);
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    await upload(page, SAME);
    const warning = page.locator('[data-test=duplicate-warning]');
    await warning.waitFor({ timeout: 10_000 });
    expect(await warning.getByRole('link').getAttribute('href')).toBe(`/console/books/${SAME.fileName}/edit`);
    // the 131 similar books read as two pages of 100, and no more
    expect(sent.map((q) => q.get('page'))).toEqual(['1', '2']);
    expect(sent.every((q) => q.get('title') === SAME.title && q.get('author') === SAME.author)).toBe(true);
    expect(await page.locator('[data-test=duplicate-unsure]').count()).toBe(0);
  });

  it(`says so at once when there are more similar books than ${DUPLICATE_PAGES} pages`, async () => {
    const page = s.page;
    // a title in 2,500 books' titles, none the same book (the service's answers, enlarged)
    const similar = 2500;
    await page.route(/\/book\/list\?.*title=Ballads/, async (route) => {
      const asked = new URL(route.request().url()).searchParams;
      const pageNo = Number(asked.get('page'));
      const answer: BookPage = {
        page: pageNo,
        pageSize: 100,
        total: similar,
        data: Array.from({ length: 100 }, (_, i): AdminBook => {
          const n = (pageNo - 1) * 100 + i + 1;
          return {
            id: String(n),
            fileName: `ballads_${n}`,
            title: `Ballads, volume ${n}`,
            author: 'Anon',
            publisher: '',
            language: 'en',
            category: 1,
            categoryText: 'Poetry',
            cover: '',
            rootFile: '',
          };
        }),
      };
      await route.fulfill({ json: { code: 0, msg: 'success', ...answer } });
    });
    const sent = listQueries(page);
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    await upload(page, { title: 'Ballads', author: 'Anon', publisher: '' });
    const notice = page.locator('[data-test=duplicate-unsure]');
    await notice.waitFor({ timeout: 10_000 });
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain(en.upload.duplicateUnsure);
    expect(text).toContain('2,500 books');
    expect(text).toContain('the 100 compared');
    // the pages it could not finish are not asked for
    await page.waitForTimeout(500);
    expect(sent).toHaveLength(1);
    const link = new URL((await notice.getByRole('link').getAttribute('href')) ?? '', s.services.consoleUrl);
    expect(link.pathname).toBe('/console/books');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      title: 'Ballads',
      author: 'Anon',
      sort: '+title',
    });
    expect(await page.locator('[data-test=duplicate-warning]').count()).toBe(0);
  });
});
