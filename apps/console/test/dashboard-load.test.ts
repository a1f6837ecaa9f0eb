import { readFile } from 'node:fs/promises';
import type { ScreenData, WordCloudItem } from '@readlib/sdk';
import type { Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MAP_BOTTOM, wordSizes } from '../src/charts/dashboard.options';
import { en } from '../src/i18n/en.messages';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, choose, heading } from './support/page-actions';
import { REAL_EPUB } from './support/paths';
import { addBook, clients } from './support/seed';
import type { Services } from './support/services';

/** A book, readers with provinces, a view and searches: something in every chart. */
async function seed(s: Services): Promise<void> {
  const { admin, reader } = await clients(s);
  const fileName = await addBook(admin, await readFile(REAL_EPUB('alice.epub')));
  for (const [openId, province, city] of [
    ['load-reader-1', '广东省', '深圳'],
    ['load-reader-2', '北京', '北京'],
  ] as const) {
    await reader.registerUser({ openId, province, city });
    await reader.getBookDetail({ fileName, openId });
    await reader.searchBooks({ keyword: 'Alice', openId });
  }
}

/** Holds the answers of requests matching `url` until `release()` (or lets them go after `ms`). */
async function holdBack(page: Page, url: RegExp, ms?: number) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
    if (ms !== undefined) setTimeout(resolve, ms);
  });
  await page.route(url, async (route: Route) => {
    await released;
    // the console may have aborted the request meanwhile: then there is nothing left to answer
    await route.continue().catch(() => {});
  });
  return { release };
}

/** A request to `url` has ended, answered or aborted. */
function ended(page: Page, url: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const done = (request: Request) => {
      if (url.test(request.url())) resolve();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  });
}

/**
 * Label boxes of a chart's SVG text that overlap another's by more than `slack` px each way (a CJK
 * font's line box reaches a few px past its glyphs, so level labels that do not touch may overlap by
 * that much).
 */
const overlappingLabels = (page: Page, chart: string, slack = 1) =>
  page.locator(`[data-test=${chart}] svg`).evaluate((svg, slack) => {
    const boxes = [...svg.querySelectorAll('text')]
      .map((text) => ({ text: text.textContent ?? '', box: text.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0);
    const pairs: string[] = [];
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (x > slack && y > slack) pairs.push(`${a.text} / ${b.text}`);
      }
    return pairs;
  }, slack);

/** Texts of a chart drawn past its edges (by more than a pixel), with where they are. */
const cutLabels = (page: Page, chart: string) =>
  page.locator(`[data-test=${chart}] svg`).evaluate((svg) => {
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text')]
      .map((text) => ({ text: text.textContent, at: text.getBoundingClientRect() }))
      .filter(
        ({ at }) =>
          at.width > 0 &&
          (at.left < box.left - 1 ||
            at.right > box.right + 1 ||
            at.top < box.top - 1 ||
            at.bottom > box.bottom + 1),
      )
      .map(
        ({ text, at }) =>
          `${text} ${Math.round(at.left - box.left)}..${Math.round(at.right - box.left)},${Math.round(at.top - box.top)}..${Math.round(at.bottom - box.top)} of ${Math.round(box.width)}x${Math.round(box.height)}`,
      );
  });

/**
 * What a catalogue of 100,000 books answers (bench/.data books-100000 as the console met it): large
 * totals, one keyword searched far more than the others, 22 categories with long names.
 */
const LARGE = {
  totals: { book: 100000, user: 100000, shelf: 1002021, rank: 499873, view: 2134909, search: 1624797 },
  topSearches: [622922, 18246, 4535, 4137, 4014, 4004, 3970, 3939, 3739, 3710],
  categories: [
    'ComputerScience',
    'SocialSciences',
    'Economics',
    'Education',
    'PoliticalScienceAndInternationalRelations',
    'MedicineAndPublicHealth',
    ...Array.from({ length: 16 }, (_, i) => `Category ${i + 7}`),
  ],
  // keywords as readers type them: one or two CJK characters, a short Latin word
  words: Array.from({ length: 100 }, (_, i) => ({
    word:
      i % 2 === 0
        ? `${'春夏秋冬山水风月花雪'[i % 10]}${'天地人和光影声色香味'[Math.floor(i / 10)]}`
        : `kw${i}`,
    count: i === 0 ? 622922 : Math.round(18246 / (1 + i / 4)),
    user: 100 + i,
  })) satisfies WordCloudItem[],
};

/** The service's own answers, with the figures of LARGE put in. */
async function serveLarge(page: Page): Promise<void> {
  const json = async (route: Route, change: (data: never) => unknown) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: never };
    await route.fulfill({ response, json: { ...body, data: change(body.data) } });
  };
  await page.route(/\/book\/home$/, (route) => json(route, () => LARGE.totals));
  await page.route(/\/screen\/wordcloud\?/, (route) => json(route, () => LARGE.words));
  await page.route(/\/screen\/data\?/, (route) =>
    json(
      route,
      (data: ScreenData): ScreenData => ({
        ...data,
        totals: LARGE.totals,
        topSearches: LARGE.topSearches.map((count, i) => ({ no: i + 1, keyword: `keyword${i + 1}`, count })),
        category: LARGE.categories.map((categoryText, i) => ({
          category: i + 1,
          categoryText,
          num: 9000 - i * 250,
          views: 100000 - i * 3000,
        })),
      }),
    ),
  );
}

describe.skipIf(!HAVE_BROWSER)('the dashboard as a large catalogue answers it', () => {
  // a laptop's window
  const s = consoleSuite({ seed, context: { viewport: { width: 1280, height: 720 } } });

  it('draws each part as soon as its answer comes, the report first, the word cloud asked after it', async () => {
    const page = s.page;
    const report = await holdBack(page, /\/screen\/data\?/);
    const cloudAsked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/screen/wordcloud')) cloudAsked.push(request.url());
    });
    await s.openLoggedIn('dashboard');
    await heading(page, 'Dashboard');
    // the report (the slowest answer of a large catalogue) is still on its way: the map is drawn, the
    // report's cards wait in their places, and the word cloud is not asked yet
    await page.locator('[data-test=map-chart] svg path').first().waitFor({ timeout: 15_000 });
    await page.locator('[data-test=total-book]').getByText('1', { exact: true }).waitFor();
    expect(await page.locator('[data-test=user-trend]').count()).toBe(0);
    expect(cloudAsked).toEqual([]);
    report.release();
    await page.locator('[data-test=user-trend] svg').waitFor();
    await page.locator('[data-test=word-cloud] svg text', { hasText: 'alice' }).waitFor();
    expect(cloudAsked).toHaveLength(1);
  });

  it('never lets the slow answer of a window left behind replace the window chosen after it', async () => {
    const page = s.page;
    const year = /\/screen\/data\?days=366/;
    await holdBack(page, year, 1_500);
    const yearEnded = ended(page, year);
    const yearAsked = page.waitForRequest(year);
    await s.openLoggedIn('dashboard?days=366');
    await yearAsked;
    const week = answered(page, '/screen/data', { days: '7' });
    await choose(page, page.locator('[data-test=days-select]'), 'Last 7 days');
    await week;
    await page.locator('[data-test=user-trend] svg').waitFor();
    await yearEnded;
    // the 366-day answer has come (or was dropped): the chart still has the week's days only
    await page.waitForTimeout(300);
    const { userTrend } = await (await clients(s.services)).admin.getScreenData({ days: 7 });
    const dates = (await page.locator('[data-test=user-trend] svg text').allTextContents()).filter((t) =>
      /^\d{4}-\d\d-\d\d$/.test(t),
    );
    expect(dates.length).toBeGreaterThan(0);
    for (const date of dates) expect(userTrend.axis).toContain(date);
    expect(await page.locator('[data-test=days-select]').textContent()).toContain('Last 7 days');
    await page.locator('.toolbar [role=status]').waitFor({ state: 'detached' });
  });

  it('large figures: grouped in cards, short on the axes, long names inside the chart, a cloud of words', async () => {
    const page = s.page;
    await serveLarge(page);
    await s.openLoggedIn('dashboard');
    await page.locator('[data-test=total-shelf]').getByText('1,002,021', { exact: true }).waitFor();
    await page.locator('[data-test=top-searches]').getByText('622,922', { exact: true }).waitFor();

    // the value axis of 0 to 700,000 searches, in a chart half the page wide
    await page.locator('[data-test=top-searches-chart] svg text', { hasText: '700K' }).waitFor();
    expect(await overlappingLabels(page, 'top-searches-chart')).toEqual([]);

    // every category name, the long first one too, is drawn inside its chart
    const chart = page.locator('[data-test=category-chart] svg');
    await chart.locator('text', { hasText: 'ComputerScience' }).waitFor();
    const outside = await chart.evaluate((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')]
        .map((text) => ({ text: text.textContent, at: text.getBoundingClientRect() }))
        .filter(({ at }) => at.width > 0 && (at.left < box.left - 1 || at.right > box.right + 1))
        .map(({ text }) => text);
    });
    expect(outside).toEqual([]);

    // beside one keyword searched 34 times more than the next, the others are not all at the smallest size
    const cloud = page.locator('[data-test=word-cloud] svg text');
    await cloud.first().waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-test=word-cloud] svg text').length > 50,
    );
    const sizes = await cloud.evaluateAll((texts) =>
      texts.map((t) => Number.parseFloat(getComputedStyle(t).fontSize)),
    );
    const [small, large] = wordSizes(LARGE.words.length);
    // every word drawn at least at the smallest size (none shrunk to a speck), a third of them larger
    expect(Math.min(...sizes), `font sizes ${sizes.join(' ')}`).toBeGreaterThanOrEqual(small - 0.5);
    const larger = sizes.filter((size) => size >= small + (large - small) / 4);
    expect(larger.length, `font sizes ${sizes.join(' ')}`).toBeGreaterThanOrEqual(sizes.length / 3);
  });

  it('large figures in Chinese: 万 on the axes', async () => {
    const page = await s.newPage({ locale: 'zh-CN', viewport: { width: 1280, height: 720 } });
    await serveLarge(page);
    await s.openLoggedIn('dashboard', page);
    await heading(page, '仪表盘');
    await page.locator('[data-test=total-shelf]').getByText('1,002,021', { exact: true }).waitFor();
    await page.locator('[data-test=top-searches-chart] svg text', { hasText: '70万' }).waitFor();
    expect(await overlappingLabels(page, 'top-searches-chart')).toEqual([]);
  });

  for (const [locale, texts] of [
    ['en-US', en],
    ['zh-CN', zhCN],
  ] as const)
    it(`on a phone (${locale}): no label of a chart over another or cut at its edge, the map clear of its scale`, async () => {
      const page = await s.newPage({
        locale,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      await serveLarge(page);
      await s.openLoggedIn('dashboard', page);
      await heading(page, texts.dashboard.title);
      const charts = ['user-trend', 'view-trend', 'category-chart', 'top-books-chart', 'top-searches-chart'];
      for (const chart of [...charts, 'map-chart'])
        await page.locator(`[data-test=${chart}] svg text`).first().waitFor();
      await page.waitForFunction(
        () => document.querySelectorAll('[data-test=word-cloud] svg text').length > 20,
      );
      // 22 categories with long names: each on its own row, level, the chart grown to hold them
      const category = page.locator('[data-test=category-chart] svg');
      await category.locator('text', { hasText: 'ComputerScience' }).waitFor();
      expect((await category.boundingBox())?.height).toBeGreaterThan(22 * 24);
      for (const chart of charts) {
        expect(await overlappingLabels(page, chart, 3), `${chart}: labels over one another`).toEqual([]);
        expect(await cutLabels(page, chart), `${chart}: labels cut`).toEqual([]);
      }
      // the words of the cloud are placed apart by the cloud itself: none runs out of the chart
      expect(await cutLabels(page, 'word-cloud'), 'word-cloud: words cut').toEqual([]);
      // the map's shapes above its colour scale, the scale's parts in the strip below: none on both
      const map = await page.locator('[data-test=map-chart] svg').evaluate((svg, strip) => {
        const box = svg.getBoundingClientRect();
        const line = box.bottom - strip;
        const parts = [...svg.querySelectorAll('path, text, rect')]
          .map((el) => el.getBoundingClientRect())
          // the chart's own background spans it all
          .filter((at) => at.width > 0 && at.height > 0 && at.height < box.height - 1);
        return {
          across: parts.filter((at) => at.top < line - 1 && at.bottom > line + 1).length,
          above: parts.filter((at) => at.bottom <= line + 1).length,
          below: parts.filter((at) => at.top >= line - 1).length,
        };
      }, MAP_BOTTOM);
      expect(map.across, 'parts of the map chart across the scale strip').toBe(0);
      expect(map.above).toBeGreaterThan(30);
      expect(map.below).toBeGreaterThan(0);
    });

  it('a city outside China is listed under the regions not on the map, not drawn beside it', async () => {
    const { admin, reader } = await clients(s.services);
    await reader.registerUser({
      openId: 'load-reader-abroad',
      province: 'California',
      city: 'San Francisco',
    });
    // the service places the city (it has its coordinates), which lie off the China map
    const scatter = await admin.getScreenScatter({ days: 30 });
    expect(scatter.geo['San Francisco']).toBeDefined();
    const page = s.page;
    await s.openLoggedIn('dashboard', page);
    await page.locator('[data-test=map-chart] svg path').first().waitFor();
    const listed = page.locator('[data-test=unplaced-regions] tbody tr');
    await listed.first().waitFor();
    const rows = await listed.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())),
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        [en.dashboard.province, 'California', '1'],
        [en.dashboard.city, 'San Francisco', '1'],
      ]),
    );
  });
});
