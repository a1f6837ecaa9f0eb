import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading, logInWithForm } from './support/page-actions';

describe.skipIf(!HAVE_BROWSER)("the first load: the build's compressed copies, not the files", () => {
  const s = consoleSuite();

  it('login and the dashboard: each script and style the build compressed arrives compressed', async () => {
    const page = s.page;
    const encodings = new Map<string, string>();
    page.on('response', (res) => {
      if (/\/console\/assets\/[^/]+\.(js|css)$/.test(res.url()))
        encodings.set(res.url(), res.headers()['content-encoding'] ?? 'none');
    });
    await page.goto(`${s.services.consoleUrl}login`);
    await logInWithForm(page);
    await heading(page, 'Dashboard');
    // each asset the page fetched: bytes over the wire and once decoded
    const loads = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => /\/console\/assets\/[^/]+\.(js|css)$/.test(e.name))
        .map((e) => {
          const r = e as PerformanceResourceTiming;
          return { name: r.name, encoded: r.encodedBodySize, decoded: r.decodedBodySize };
        }),
    );
    // the build compresses every file of 1 KiB or more (apps/console/vite.config.ts)
    const compressible = loads.filter((l) => l.decoded >= 1024);
    expect(compressible.length).toBeGreaterThanOrEqual(5);
    for (const load of compressible) {
      expect(['br', 'gzip'], load.name).toContain(encodings.get(load.name));
      expect(load.encoded, load.name).toBeLessThan(load.decoded);
    }
    const sum = (key: 'encoded' | 'decoded') => loads.reduce((n, l) => n + l[key], 0);
    // the dashboard's ECharts and map data are most of it: about 1.2 MB as built
    expect(sum('decoded')).toBeGreaterThan(500_000);
    expect(sum('encoded') / sum('decoded')).toBeLessThan(0.4);
  });

  it("the tab's icon, also when the console is opened on a deep link", async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}login`);
    await logInWithForm(page);
    await heading(page, 'Dashboard');
    for (const path of ['books/upload', 'books?page=2']) {
      await page.goto(`${s.services.consoleUrl}${path}`);
      // a relative href resolved under the deep link's folder, answered by the console's index.html
      const href = await page.$eval('link[rel="icon"]', (link) => (link as HTMLLinkElement).href);
      expect([path, new URL(href).pathname]).toEqual([path, '/console/favicon.svg']);
      const icon = await page.request.get(href);
      expect([path, icon.status(), icon.headers()['content-type']]).toEqual([
        path,
        200,
        expect.stringMatching(/^image\/svg\+xml/),
      ]);
    }
  });
});
