import { describe, expect, it } from 'vitest';
import { compactFigure, type Figures, wholeFigure } from '../i18n/figures';
import {
  CATEGORY_LABEL_WIDTH,
  CATEGORY_NARROW_LABEL_WIDTH,
  CATEGORY_NARROW_ROW,
  categoryChartHeight,
  categoryOption,
  fitWordCloud,
  MAP_BOTTOM,
  mapOption,
  onChinaMap,
  rankingOption,
  TREND_DATE_MARGIN,
  TREND_LEFT,
  TREND_RIGHT,
  trendOption,
  WORD_GAP,
  wordCloudOption,
  wordSizes,
  wordWeights,
} from './dashboard.options';

const MARKUP = '<img src=x onerror=alert(1)>';

/** Every tooltip of an option and its formatter. */
function tooltipOf(option: object): { renderMode?: string; formatter: (p: unknown) => string } {
  return (option as { tooltip: { renderMode?: string; formatter: (p: unknown) => string } }).tooltip;
}

describe('dashboard chart options', () => {
  const options = {
    trend: trendOption({ axis: ['2026-01-01'], values: [3] }, 'New users'),
    category: categoryOption([{ category: 1, categoryText: MARKUP, num: 2, views: 5 }], {
      books: 'Books',
      views: 'Views',
    }),
    ranking: rankingOption([{ label: MARKUP, value: 4 }], 'Readers'),
    words: wordCloudOption([{ word: MARKUP, count: 2, user: 1 }], { count: 'Searches', users: 'Searchers' }),
    map: mapOption(
      [{ name: '广东', value: 3 }],
      { data: [{ name: MARKUP, value: 1 }], geo: {} },
      {
        users: 'Users',
        cities: 'City',
      },
    ),
  };

  it('draw every tooltip with the renderer, never as HTML', () => {
    for (const [name, option] of Object.entries(options))
      expect(tooltipOf(option).renderMode, name).toBe('richText');
  });

  it('put untrusted names into tooltips as they are, beside their figures', () => {
    expect(tooltipOf(options.ranking).formatter({ name: MARKUP, value: 4 })).toBe(`${MARKUP}\nReaders: 4`);
    expect(
      tooltipOf(options.words).formatter({
        name: MARKUP,
        value: 2,
        data: { name: MARKUP, value: 1, count: 2, users: 1 },
      }),
    ).toBe(`${MARKUP}\nSearches: 2\nSearchers: 1`);
    expect(
      tooltipOf(options.category).formatter([
        { name: MARKUP, seriesName: 'Books', value: 2 },
        { name: MARKUP, seriesName: 'Views', value: 5 },
      ]),
    ).toBe(`${MARKUP}\nBooks: 2\nViews: 5`);
    expect(tooltipOf(options.trend).formatter([{ name: '2026-01-01', value: 3 }])).toBe(
      '2026-01-01\nNew users: 3',
    );
    expect(tooltipOf(options.map).formatter({ name: '深圳', value: [114, 22, 7] })).toBe('深圳\nUsers: 7');
    expect(tooltipOf(options.map).formatter({ name: '西藏', value: Number.NaN })).toBe('西藏\nUsers: 0');
  });

  it('put a city on the map only where the gazetteer gave coordinates', () => {
    const option = mapOption(
      [],
      {
        data: [
          { name: '深圳', value: 2 },
          { name: 'Atlantis', value: 1 },
        ],
        geo: { 深圳: [114.06, 22.54] },
      },
      { users: 'Users', cities: 'City' },
    ) as { series: { type: string; data: unknown[] }[] };
    expect(option.series.find((s) => s.type === 'scatter')?.data).toEqual([
      { name: '深圳', value: [114.06, 22.54, 2] },
    ]);
  });

  it('leave room for the first and last dates, for long category names, and between the words of the cloud', () => {
    const trend = options.trend as { grid: { left: number; right: number; containLabel: boolean } };
    // half of `2026-11-05` at 12 px is about 32 px, on each side: neither the first date ("026-10-30")
    // nor the last ("2026-11-") is cut; trend-labels.test.ts checks the chart as drawn
    expect(trend.grid.left).toBeGreaterThanOrEqual(36);
    expect(trend.grid.left).toBe(TREND_LEFT);
    expect(trend.grid.right).toBeGreaterThanOrEqual(36);
    expect(trend.grid.right).toBe(TREND_RIGHT);
    expect(trend.grid.containLabel).toBe(true);
    const category = options.category as {
      grid: { containLabel: boolean };
      xAxis: { axisLabel: { width: number; interval: number } };
    };
    expect(category.grid.containLabel).toBe(true);
    expect(category.xAxis.axisLabel.width).toBe(CATEGORY_LABEL_WIDTH);
    expect(CATEGORY_LABEL_WIDTH).toBeGreaterThanOrEqual(120);
    expect(category.xAxis.axisLabel.interval).toBe(0);
    const [cloud] = (options.words as { series: Record<string, unknown>[] }).series;
    expect(cloud).toMatchObject({
      width: '100%',
      height: '100%',
      gridSize: WORD_GAP,
      shrinkToFit: true,
      drawOutOfBound: false,
    });
    expect(WORD_GAP).toBeGreaterThanOrEqual(12);
    expect(wordSizes(5)[1]).toBeGreaterThan(wordSizes(100)[1]);
  });
});

/** The figures of the Chinese console. */
const CHINESE: Figures = { whole: (n) => wholeFigure(n, 'zh-CN'), compact: (n) => compactFigure(n, 'zh-CN') };

/** Searches of the 100-keyword cloud of a 100,000-book catalogue: one keyword far above the others. */
const SKEWED = [622922, 30932, 7593, 7467, 6011, 5470, 5197, 4528, 4425, 4270, 3910, 3732, 3298, 2100, 1500];

/** The font size ECharts gives a word: its `value` mapped linearly from the values' range onto sizeRange. */
function fontSizes(option: object): number[] {
  const [cloud] = (option as { series: { sizeRange: [number, number]; data: { value: number }[] }[] }).series;
  const values = cloud!.data.map((d) => d.value);
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const [small, large] = cloud!.sizeRange;
  return values.map((v) => small + ((v - low) / (high - low)) * (large - small));
}

describe('dashboard charts of a large catalogue', () => {
  it('value axes write large figures short, tooltips write them whole, in the language', () => {
    type Axis = { axisLabel: { formatter: (n: number) => string } };
    const ranking = rankingOption([{ label: 'first', value: 622922 }], 'Searches') as { xAxis: Axis };
    expect([100000, 700000].map(ranking.xAxis.axisLabel.formatter)).toEqual(['100K', '700K']);
    const trend = trendOption({ axis: ['2026-01-01'], values: [163287] }, '阅读', CHINESE) as { yAxis: Axis };
    expect(trend.yAxis.axisLabel.formatter(180000)).toBe('18万');
    const category = categoryOption([], { books: 'Books', views: 'Views' }) as { yAxis: Axis };
    expect(category.yAxis.axisLabel.formatter(120000)).toBe('120K');
    expect(tooltipOf(ranking).formatter({ name: 'first', value: 622922 })).toBe('first\nSearches: 622,922');
  });

  it('the word cloud sizes words by rank: beside one keyword searched far more, the rest are not specks', () => {
    const words = SKEWED.map((count, i) => ({ word: `w${i}`, count, user: 1 }));
    const option = wordCloudOption(words, { count: 'Searches', users: 'Searchers' });
    const sizes = fontSizes(option);
    const [small, large] = wordSizes(words.length);
    const middle = (small + large) / 2;
    // in proportion to the searches, every word but the first would be drawn under 18 px of [16, 52]
    expect(sizes[0]).toBe(large);
    expect(sizes[1]).toBeGreaterThan(middle + (large - middle) / 2);
    expect(sizes.at(-1)).toBe(small);
    const aboveQuarter = sizes.filter((size) => size >= small + (large - small) / 4).length;
    expect(aboveQuarter).toBeGreaterThanOrEqual(Math.floor(sizes.length / 2));
    // more searches, a larger word; the same searches, the same size
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]!).toBeLessThan(sizes[i - 1]!);
    expect(wordWeights([5, 3, 3, 1])).toEqual([1, 0.25, 0.25, 0]);
    // the tooltip still gives the searches themselves
    const [cloud] = (option as { series: { data: unknown[] }[] }).series;
    expect(tooltipOf(option).formatter({ data: cloud!.data[0] })).toBe('w0\nSearches: 622,922\nSearchers: 1');
  });
});

describe('dashboard charts in a narrow window', () => {
  const categories = Array.from({ length: 22 }, (_, i) => ({
    category: i + 1,
    categoryText: `Category ${i + 1}`,
    num: 22 - i,
    views: i,
  }));

  it('the categories lie in rows, the first on top, names level beside the bars, the chart a row each high', () => {
    type Axis = {
      type: string;
      inverse?: boolean;
      axisLabel: { rotate?: number; width?: number; interval?: number };
    };
    const option = categoryOption(categories, { books: 'Books', views: 'Views' }, undefined, true) as {
      xAxis: Axis;
      yAxis: Axis & { data: string[] };
    };
    expect(option.xAxis.type).toBe('value');
    expect(option.yAxis).toMatchObject({ type: 'category', inverse: true });
    expect(option.yAxis.data[0]).toBe('Category 1');
    expect(option.yAxis.axisLabel).toMatchObject({ interval: 0, width: CATEGORY_NARROW_LABEL_WIDTH });
    expect(option.yAxis.axisLabel.rotate).toBeUndefined();
    expect(categoryChartHeight(22)).toBeGreaterThanOrEqual(22 * CATEGORY_NARROW_ROW);
    // a handful of categories keeps the height of the other charts
    expect(categoryChartHeight(3)).toBe(320);
    // a wide window keeps columns over slanted names
    const wide = categoryOption(categories, { books: 'Books', views: 'Views' }) as { xAxis: Axis };
    expect(wide.xAxis.type).toBe('category');
    expect(wide.xAxis.axisLabel.rotate).toBeGreaterThan(0);
  });

  it('figures of a value axis that would touch are left out; the dates stand clear of the 0 above them', () => {
    type Axis = { axisLabel: { hideOverlap?: boolean; margin?: number } };
    const trend = trendOption({ axis: ['2026-01-01'], values: [3] }, 'New users') as {
      xAxis: Axis;
      yAxis: Axis;
    };
    const ranking = rankingOption([{ label: 'first', value: 622922 }], 'Searches') as { xAxis: Axis };
    expect(trend.yAxis.axisLabel.hideOverlap).toBe(true);
    expect(ranking.xAxis.axisLabel.hideOverlap).toBe(true);
    expect(trend.xAxis.axisLabel.margin).toBe(TREND_DATE_MARGIN);
  });

  it('the word cloud is drawn in whole cells of its grid, centred, a few px inside the chart', () => {
    const option = wordCloudOption([{ word: 'a', count: 1, user: 1 }], {
      count: 'Searches',
      users: 'Searchers',
    });
    const fit = (width: number, height: number) =>
      (
        fitWordCloud(option, { width, height }) as {
          series: { width: number; height: number; left: string }[];
        }
      ).series[0]!;
    for (const [width, height] of [
      [324, 360],
      [476, 480],
      [1010, 480],
    ] as const) {
      const cloud = fit(width, height);
      expect(cloud.width % WORD_GAP, `${width}`).toBe(0);
      expect(cloud.height % WORD_GAP, `${height}`).toBe(0);
      expect(cloud.width).toBeLessThanOrEqual(width - 4);
      expect(cloud.width).toBeGreaterThan(width - 4 - WORD_GAP);
      expect(cloud.height).toBeLessThanOrEqual(height - 4);
      expect(cloud.left).toBe('center');
    }
  });

  it('the map lies above its colour scale, which runs level along the chart foot', () => {
    const option = mapOption(
      [{ name: '广东', value: 3 }],
      { data: [], geo: {} },
      { users: 'Users', cities: 'City' },
    ) as {
      visualMap: { orient: string; bottom: number; itemWidth: number; left: string };
      geo: { bottom: number; zoom?: number };
    };
    expect(option.visualMap).toMatchObject({ orient: 'horizontal', left: 'center' });
    expect(option.geo.bottom).toBe(MAP_BOTTOM);
    // the scale and its figures (about 20 px) fit under the map's box
    expect(option.visualMap.bottom + option.visualMap.itemWidth + 20).toBeLessThanOrEqual(MAP_BOTTOM);
    expect(option.geo.zoom ?? 1).toBe(1);
  });

  it('a city is drawn where the China map is; one outside it (San Francisco) is not drawn beside the map', () => {
    const geo: Record<string, [number, number]> = {
      广州: [113.27, 23.13],
      三沙: [112.34, 16.83],
      漠河: [122.54, 52.97],
      'San Francisco': [-122.42, 37.77],
      Paris: [2.35, 48.86],
      Sydney: [151.21, -33.87],
    };
    const data = Object.keys(geo).map((name) => ({ name, value: 1 }));
    const option = mapOption([], { data, geo }, { users: 'Users', cities: 'City' }) as {
      series: Array<{ type: string; data: Array<{ name: string }> }>;
    };
    const drawn = option.series.find((x) => x.type === 'scatter')!.data.map((c) => c.name);
    expect(drawn).toEqual(['广州', '三沙', '漠河']);
    for (const name of ['San Francisco', 'Paris', 'Sydney']) expect(onChinaMap(geo[name])).toBeUndefined();
    expect(onChinaMap(undefined)).toBeUndefined();
    expect(onChinaMap([113.27])).toBeUndefined();
  });
});
