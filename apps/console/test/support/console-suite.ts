import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createAdminClient } from '@readlib/sdk';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { contextOptions, launchBrowser } from './browser';
import { SCREENSHOTS } from './paths';
import { OPERATOR, type Services, startServices } from './services';

export interface ConsoleSuite {
  readonly services: Services;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** what went wrong in the page during the current test (asserted empty after each test) */
  readonly problems: string[];
  /** a new browser profile and page, watched like the first (e.g. in another language) */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** a token of the operator, fetched through the SDK */
  token(): Promise<string>;
  /** opens a console page already logged in (the token put where the console keeps it) */
  openLoggedIn(path: string, page?: Page): Promise<Page>;
  /**
   * Problems the current test provokes on purpose (a request it aborts, a 5xx it answers), matched by
   * the text `problems` holds: not counted against it. Only until the test ends.
   */
  expectProblems(pattern: RegExp): void;
}

/** Console errors that only report an answer the test provoked (401 after expiry, 409, 422). */
const CLIENT_ERROR_LOAD = /^Failed to load resource: the server responded with a status of 4\d\d/;

/**
 * Starts both services and Chromium once per file; each test gets a fresh browser profile whose page
 * is watched for uncaught errors, console errors, Content-Security-Policy violations and 5xx answers,
 * and is photographed when the test fails (test-output/screenshots/<file>--<test>.png).
 */
export function consoleSuite(
  options: {
    env?: Record<string, string>;
    context?: BrowserContextOptions;
    seed?: (s: Services) => Promise<void>;
  } = {},
): ConsoleSuite {
  let services: Services;
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let pages: Page[] = [];
  const problems: string[] = [];
  let expected: RegExp[] = [];

  const watch = async (page: Page) => {
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const w = window as unknown as { __csp?: string[] };
        w.__csp = [...(w.__csp ?? []), `${e.violatedDirective} ${e.blockedURI}`];
      });
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !CLIENT_ERROR_LOAD.test(msg.text()))
        problems.push(`console error: ${msg.text()}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 500) problems.push(`HTTP ${res.status()} ${res.url()}`);
    });
  };

  const newPage = async (extra?: BrowserContextOptions) => {
    const context = await browser.newContext(contextOptions({ ...options.context, ...extra }));
    contexts.push(context);
    const page = await context.newPage();
    await watch(page);
    pages.push(page);
    return page;
  };

  beforeAll(async () => {
    services = await startServices(options.env);
    browser = await launchBrowser();
    await options.seed?.(services);
  });
  afterAll(async () => {
    await browser?.close();
    await services?.close();
  });
  beforeEach(async () => {
    problems.length = 0;
    expected = [];
    await newPage();
  });
  afterEach(async (ctx) => {
    for (const page of pages) {
      const csp = await page
        .evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])
        .catch(() => []);
      problems.push(...csp.map((v) => `CSP violation: ${v}`));
    }
    const unexpected = problems.filter((p) => !expected.some((pattern) => pattern.test(p)));
    if (ctx.task.result?.state === 'fail' || unexpected.length > 0) {
      await mkdir(SCREENSHOTS, { recursive: true });
      const name = `${basename(ctx.task.file?.name ?? 'test', '.test.ts')}--${ctx.task.name}`.replace(
        /[^\w.-]+/g,
        '-',
      );
      for (const [i, page] of pages.entries()) {
        const path = join(SCREENSHOTS, `${name}${i ? `-${i}` : ''}.png`);
        await page.screenshot({ path, fullPage: true }).catch(() => {});
      }
    }
    for (const context of contexts) await context.close();
    contexts = [];
    pages = [];
    expect(unexpected, 'problems seen by the browser').toEqual([]);
  });

  const suite: ConsoleSuite = {
    get services() {
      return services;
    },
    get browser() {
      return browser;
    },
    get context() {
      return contexts[0]!;
    },
    get page() {
      return pages[0]!;
    },
    problems,
    newPage,
    async token() {
      const admin = createAdminClient({ baseUrl: services.adminUrl });
      return (await admin.login(OPERATOR.username, OPERATOR.password)).token;
    },
    async openLoggedIn(path, page = suite.page) {
      const token = await suite.token();
      await page.goto(`${services.consoleUrl}login`);
      await page.evaluate((t) => sessionStorage.setItem('readlib.console.token', t), token);
      await page.goto(`${services.consoleUrl}${path.replace(/^\//, '')}`);
      return page;
    },
    expectProblems(pattern) {
      expected.push(pattern);
    },
  };
  return suite;
}
