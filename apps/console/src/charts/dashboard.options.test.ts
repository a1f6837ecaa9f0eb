import { describe, expect, it } from 'vitest';
import {
  CATEGORY_LABEL_WIDTH,
  categoryOption,
  mapOption,
  rankingOption,
  TREND_RIGHT,
  trendOption,
  WORD_GAP,
  wordCloudOption,
  wordSizes,
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
        data: { name: MARKUP, value: 2, users: 1 },
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

  it('leave room for the last date, for long category names, and between the words of the cloud', () => {
    const trend = options.trend as { grid: { right: number; containLabel: boolean } };
    // half of `2026-11-05` at 12 px is about 32 px: the last date is not cut ("2026-11-")
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
