import { readFile } from 'node:fs/promises';
import { makeHostileZip } from '@readlib/epub/testing';
import { type AdminClient, type ApiError, isApiError } from '@readlib/sdk';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileSize } from '../src/books/file-size';
import { en } from '../src/i18n/en.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, heading } from './support/page-actions';
import { REAL_EPUB } from './support/paths';
import { addBook, clients } from './support/seed';

/** Small enough that testbook.epub (1 MB) is refused as too large, large enough for the others. */
const UPLOAD_MAX_BYTES = 600_000;

async function uploadInBrowser(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page
    .locator('[data-test=upload-drop] input[type=file]')
    .setInputFiles({ name, mimeType: 'application/epub+zip', buffer });
}

/** What the SDK reports for these bytes: the same call the console makes. */
async function refusalOf(admin: AdminClient, bytes: Buffer): Promise<ApiError> {
  const err = await admin.uploadBook(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isApiError(err)) throw new Error('the service accepted the upload');
  return err;
}

/**
 * The headline the console gives a refusal: the EPUB reader's code when the message starts with one
 * (`NOT_A_ZIP: …`), else its kind.
 */
function headlineOf(refusal: ApiError): string {
  const code = /^([A-Z_]+): /.exec(refusal.msg)?.[1] ?? '';
  const byCode = (en.errors.epub as Record<string, string>)[code];
  return byCode ?? (en.errors as unknown as Record<string, string>)[refusal.kind]!;
}

/** The alert: the headline for the refusal in the operator's words, then the service's msg. */
async function explained(page: Page, headline: string, msg: string): Promise<void> {
  const alert = page.getByRole('alert').filter({ hasText: headline });
  await alert.getByText(headline, { exact: true }).waitFor();
  expect(await alert.textContent()).toContain(`The service says: ${msg}`);
}

describe.skipIf(!HAVE_BROWSER)('uploads refused, explained in the operator’s words', () => {
  const s = consoleSuite({ env: { UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) } });
  let admin: AdminClient;
  beforeAll(async () => {
    ({ admin } = await clients(s.services));
    await addBook(admin, await readFile(REAL_EPUB('alice.epub')));
  });

  it('an unsafe archive (a path leaving the book) is refused with 422 and nothing is shown as parsed', async () => {
    const page = s.page;
    const bytes = makeHostileZip('traversal');
    const refusal = await refusalOf(admin, bytes);
    expect(refusal.kind).toBe('unsafe_archive');
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    const answer = answered(page, '/book/upload');
    await uploadInBrowser(page, 'hostile.epub', bytes);
    expect((await answer).status()).toBe(422);
    expect(headlineOf(refusal)).toBe(en.errors.epub.UNSAFE_PATH);
    await explained(page, headlineOf(refusal), refusal.msg);
    expect(await page.getByRole('heading', { name: 'Parsed book' }).count()).toBe(0);
  });

  it('a file that is no EPUB at all, and a file too large (named, with its size), are explained each in their words', async () => {
    const page = s.page;
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');

    const notZip = makeHostileZip('not-a-zip');
    const notZipRefusal = await refusalOf(admin, notZip);
    let answer = answered(page, '/book/upload');
    await uploadInBrowser(page, 'plain.epub', notZip);
    expect((await answer).status()).toBe(notZipRefusal.status);
    expect(notZipRefusal.kind).toBe('unsupported_media');
    await explained(page, headlineOf(notZipRefusal), notZipRefusal.msg);

    const large = await readFile(REAL_EPUB('testbook.epub'));
    expect(large.length).toBeGreaterThan(UPLOAD_MAX_BYTES);
    const tooLarge = await refusalOf(admin, large);
    expect(tooLarge.kind).toBe('too_large');
    answer = answered(page, '/book/upload');
    await uploadInBrowser(page, 'testbook.epub', large);
    expect((await answer).status()).toBe(413);
    // the service's message names the limit, the headline the file and its size
    expect(tooLarge.msg).toBe(`the file is larger than the upload limit of ${UPLOAD_MAX_BYTES} bytes`);
    const named = en.errors.too_largeFile
      .replace('{name}', 'testbook.epub')
      .replace('{size}', fileSize(large.length));
    await explained(page, named, tooLarge.msg);
    // the notice stands apart from the drop zone above it
    const drop = await page.locator('[data-test=upload-drop]').boundingBox();
    const notice = await page.getByRole('alert').filter({ hasText: named }).boundingBox();
    expect(notice!.y - (drop!.y + drop!.height)).toBeGreaterThanOrEqual(12);
  });

  it('a file not named .epub is refused before anything is sent', async () => {
    const page = s.page;
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    let sent = false;
    page.on('request', (req) => {
      if (req.url().endsWith('/book/upload')) sent = true;
    });
    await page
      .locator('[data-test=upload-drop] input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a book') });
    await page.getByRole('alert').getByText(en.upload.notEpub).waitFor();
    expect(sent).toBe(false);
  });

  it('a duplicate of a catalogue book: parsed and shown, then refused at create (409) in words', async () => {
    const page = s.page;
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    await uploadInBrowser(page, 'alice-again.epub', await readFile(REAL_EPUB('alice.epub')));
    await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
    const refused = answered(page, '/book/create');
    await page.locator('[data-test=create-book]').click();
    const answer = await refused;
    expect(answer.status()).toBe(409);
    const { msg } = (await answer.json()) as { msg: string };
    await explained(page, en.errors.conflict, msg);
    // still on the upload, nothing added
    expect(page.url()).toMatch(/\/console\/books\/upload$/);
    expect((await admin.getDashboard()).book).toBe(1);
  });
});
