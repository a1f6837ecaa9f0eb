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
});
