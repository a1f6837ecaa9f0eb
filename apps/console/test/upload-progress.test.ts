import { randomBytes } from 'node:crypto';
import { makeEpub } from '@readlib/epub/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, heading } from './support/page-actions';

const MiB = 1024 * 1024;

/**
 * A valid EPUB of several MB: a stored (uncompressed) resource of random bytes, which no compression
 * along the way can shrink, so the upload really carries that many bytes.
 */
const heavyEpub = (title: string, bytes: number) =>
  makeEpub({
    title,
    creators: ['Heavy Author'],
    extraEntries: [{ name: 'OEBPS/images/noise.bin', data: randomBytes(bytes), method: 0 }],
  });

/**
 * Loopback sends megabytes in a few milliseconds, too fast for progress events: Chromium's own
 * network emulation holds the upload to `bytesPerSecond`, so the bar has time to move.
 */
async function throttleUpload(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

/** Records, in the page, every distinct value the upload bar announces (`aria-valuenow`). */
async function recordBar(page: Page): Promise<void> {
  await page.evaluate(() => {
    const shown: number[] = [];
    (window as unknown as { __bar: number[] }).__bar = shown;
    const look = () => {
      const now = document.querySelector('[data-test=upload-bar]')?.getAttribute('aria-valuenow');
      if (now !== null && now !== undefined && Number(now) !== shown.at(-1)) shown.push(Number(now));
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

const barShown = (page: Page) => page.evaluate(() => (window as unknown as { __bar: number[] }).__bar);

async function upload(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page
    .locator('[data-test=upload-drop] input[type=file]')
    .setInputFiles({ name, mimeType: 'application/epub+zip', buffer });
}

describe.skipIf(!HAVE_BROWSER)('upload progress', () => {
  const s = consoleSuite();

  it('a book of several MB: the bar climbs through values below 100 to 100, then the book is parsed', async () => {
    const page = s.page;
    const epub = heavyEpub('A Heavy Book', 6 * MiB);
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    await recordBar(page);
    await throttleUpload(page, 2 * MiB);
    const answer = answered(page, '/book/upload');
    await upload(page, 'heavy.epub', epub);

    // while it goes: the bytes in words, and the drop zone takes no other file
    await page.getByText(/^\d+(\.\d)? [KM]?B of 6\.0 MB sent$/).waitFor();
    expect(await page.locator('[data-test=upload-drop] input[type=file]').isDisabled()).toBe(true);

    expect((await answer).status()).toBe(200);
    await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
    expect(await page.locator('#upload-title').inputValue()).toBe('A Heavy Book');
    expect(await page.locator('[data-test=upload-progress]').count()).toBe(0);

    const shown = await barShown(page);
    const between = shown.filter((v) => v > 0 && v < 100);
    expect(between.length, `bar values ${shown.join(', ')}`).toBeGreaterThan(0);
    expect(shown.at(-1)).toBe(100);
    expect(shown.indexOf(between[0]!)).toBeLessThan(shown.indexOf(100));
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
  });

  it('in Chinese, the bytes sent are said in Chinese', async () => {
    const page = await s.newPage({ locale: 'zh-CN' });
    await s.openLoggedIn('books/upload', page);
    await heading(page, '上传 EPUB');
    await throttleUpload(page, 1 * MiB);
    const answer = answered(page, '/book/upload');
    await upload(page, 'heavy-zh.epub', heavyEpub('一本厚书', 3 * MiB));
    await page.getByText(/^已发送 \d+(\.\d)? [KM]?B \/ 3\.0 MB$/).waitFor();
    expect((await answer).status()).toBe(200);
    await page.getByRole('heading', { name: '解析结果' }).waitFor();
  });
});
