import type { MapItem, ScatterData, ScreenData, WordCloudItem } from '@readlib/sdk';
import type { EChartsCoreOption } from 'echarts/core';
import { compactFigure, type Figures, wholeFigure } from '../i18n/figures';

/**
 * ECharts options of the dashboard, from the report endpoints' data. Every tooltip is drawn by the
 * renderer (`renderMode: 'richText'`), never as HTML: keywords, titles, category, province and city
 * names come from readers and books and must stay text.
 */
const tooltip = (extra: Record<string, unknown> = {}) => ({
  renderMode: 'richText',
  confine: true,
  ...extra,
});

/** Figures as the English console writes them, for callers that give none. */
const ENGLISH: Figures = { whole: (n) => wholeFigure(n, 'en'), compact: (n) => compactFigure(n, 'en') };

/** A tooltip line per value: the label as given, then the whole figure. */
const line = (label: string, value: unknown, figures: Figures) =>
  `${label}: ${typeof value === 'number' ? figures.whole(value) : String(value)}`;

/**
 * A value axis: counts only (no fractions), written short, so that the labels of a large catalogue's
 * figures keep apart however narrow the chart.
 */
const valueAxis = (figures: Figures) => ({
  type: 'value',
  minInterval: 1,
  axisLabel: { formatter: (n: number) => figures.compact(n) },
});

interface Param {
  name: string;
  value: unknown;
  seriesName?: string;
  data?: unknown;
}

const params = (p: unknown): Param[] => (Array.isArray(p) ? p : [p]) as Param[];

/**
 * Room right of the trend's plot for half of its last date, centred on the plot's end (`2026-11-05` is
 * about 64 px wide).
 */
export const TREND_RIGHT = 40;
/**
 * Room left of the value axis's figures for half of the first date, centred on the plot's start:
 * `containLabel` makes room for the figures (a single digit for a small library, a few pixels) but not
 * for that half, and the chart's edge cut it ("026-10-30"). Dates aligned to the plot's ends instead
 * (`alignMinLabel`) reach into the next label, and `hideOverlap` then drops the first date.
 */
export const TREND_LEFT = 40;
/** The widest a category's name is drawn under the axis before it is cut (the tooltip has it whole). */
export const CATEGORY_LABEL_WIDTH = 140;
/** The slant of the category names, in degrees. */
const CATEGORY_LABEL_ROTATE = 35;

/** About how wide a name is drawn at 12 px: CJK and other wide characters 12 px, others 7 px. */
const drawnWidth = (text: string) =>
  [...text].reduce(
    (sum, c) =>
      sum + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/.test(c) ? 12 : 7),
    0,
  );

/**
 * Room left of the category chart's plot for its first name: a slanted name ends at its column and
 * reaches left and down from it, and `containLabel` makes room only for the names' height, so a long
 * first name ran off the chart's left edge once the value axis's figures were short.
 */
export const categoryLeft = (first: string | undefined): number =>
  Math.max(
    8,
    Math.ceil(
      Math.min(CATEGORY_LABEL_WIDTH, drawnWidth(first ?? '')) *
        Math.cos((CATEGORY_LABEL_ROTATE * Math.PI) / 180),
    ),
  );
/** Space between the words of the cloud, in px. */
export const WORD_GAP = 14;
/** The font sizes of the cloud's words: larger when there are few, so that they fill the card. */
export const wordSizes = (count: number): [number, number] =>
  count <= 12 ? [20, 64] : count <= 40 ? [16, 52] : [12, 40];
/**
 * What sizes each word of the cloud: its rank among the window's distinct search counts (equal counts,
 * equal sizes), from 1 for the most searched to 0 for the least, on a curve that keeps most words small
 * and the first few large. Not the searches themselves: they are skewed (one keyword searched 600,000
 * times beside others searched a few thousand times), and sizes in proportion to them, or even to their
 * logarithm, draw one word large and leave every other one a speck at the smallest size.
 */
export function wordWeights(counts: number[]): number[] {
  const distinct = [...new Set(counts)].sort((a, b) => b - a);
  const last = Math.max(1, distinct.length - 1);
  return counts.map((count) => (1 - distinct.indexOf(count) / last) ** 2);
}

export function trendOption(
  trend: ScreenData['userTrend'],
  seriesName: string,
  figures: Figures = ENGLISH,
): EChartsCoreOption {
  return {
    grid: { left: TREND_LEFT, right: TREND_RIGHT, top: 24, bottom: 8, containLabel: true },
    tooltip: tooltip({
      trigger: 'axis',
      formatter: (p: unknown) => {
        const [first] = params(p);
        return first ? `${first.name}\n${line(seriesName, first.value, figures)}` : '';
      },
    }),
    xAxis: { type: 'category', data: trend.axis, boundaryGap: false, axisLabel: { hideOverlap: true } },
    yAxis: valueAxis(figures),
    series: [
      { type: 'line', name: seriesName, data: trend.values, smooth: true, areaStyle: { opacity: 0.15 } },
    ],
  };
}

export function categoryOption(
  categories: ScreenData['category'],
  names: { books: string; views: string },
  figures: Figures = ENGLISH,
): EChartsCoreOption {
  return {
    // long names get the room they need under the axis (containLabel), cut at CATEGORY_LABEL_WIDTH; the
    // tooltip of a column (the pointer anywhere above its name) has the whole name
    grid: {
      left: categoryLeft(categories[0]?.categoryText),
      right: 16,
      top: 40,
      bottom: 8,
      containLabel: true,
    },
    legend: { top: 0 },
    tooltip: tooltip({
      trigger: 'axis',
      formatter: (p: unknown) => {
        const list = params(p);
        return [list[0]?.name ?? '', ...list.map((x) => line(x.seriesName ?? '', x.value, figures))].join(
          '\n',
        );
      },
    }),
    xAxis: {
      type: 'category',
      data: categories.map((c) => c.categoryText),
      axisLabel: {
        rotate: CATEGORY_LABEL_ROTATE,
        interval: 0,
        width: CATEGORY_LABEL_WIDTH,
        overflow: 'truncate',
      },
    },
    yAxis: valueAxis(figures),
    series: [
      { type: 'bar', name: names.books, data: categories.map((c) => c.num) },
      { type: 'bar', name: names.views, data: categories.map((c) => c.views) },
    ],
  };
}

/** A horizontal bar per item, the first on top. */
export function rankingOption(
  items: { label: string; value: number }[],
  seriesName: string,
  figures: Figures = ENGLISH,
): EChartsCoreOption {
  const top = [...items].reverse();
  return {
    grid: { left: 140, right: 24, top: 8, bottom: 24 },
    tooltip: tooltip({
      trigger: 'item',
      formatter: (p: unknown) => {
        const [x] = params(p);
        return x ? `${x.name}\n${line(seriesName, x.value, figures)}` : '';
      },
    }),
    xAxis: valueAxis(figures),
    yAxis: {
      type: 'category',
      data: top.map((i) => i.label),
      axisLabel: { width: 120, overflow: 'truncate' },
    },
    series: [{ type: 'bar', name: seriesName, data: top.map((i) => i.value) }],
  };
}

export function wordCloudOption(
  words: WordCloudItem[],
  names: { count: string; users: string },
  figures: Figures = ENGLISH,
): EChartsCoreOption {
  const weights = wordWeights(words.map((w) => w.count));
  return {
    tooltip: tooltip({
      formatter: (p: unknown) => {
        const [x] = params(p);
        const item = x?.data as { name: string; count: number; users: number } | undefined;
        return item
          ? `${item.name}\n${line(names.count, item.count, figures)}\n${line(names.users, item.users, figures)}`
          : '';
      },
    }),
    series: [
      {
        type: 'wordCloud',
        left: 'center',
        top: 'center',
        width: '100%',
        height: '100%',
        // the whole card, words kept apart (gridSize: the gap between words, in px), some turned
        // upright so more fit; smaller rather than dropped when they do not fit
        shape: 'square',
        keepAspect: false,
        sizeRange: wordSizes(words.length),
        rotationRange: [0, 90],
        rotationStep: 90,
        gridSize: WORD_GAP,
        drawOutOfBound: false,
        shrinkToFit: true,
        // the same words in the same places on every draw
        layoutAnimation: false,
        // `value` sizes the word (wordWeights); the tooltip reads the searches themselves
        data: words.map((w, i) => ({ name: w.word, value: weights[i], count: w.count, users: w.user })),
      },
    ],
  };
}

export function mapOption(
  provinces: MapItem[],
  scatter: ScatterData,
  names: { users: string; cities: string },
  figures: Figures = ENGLISH,
): EChartsCoreOption {
  const max = Math.max(1, ...provinces.map((p) => p.value));
  const cities = scatter.data.flatMap((c) => {
    const at = scatter.geo[c.name];
    return at ? [{ name: c.name, value: [at[0], at[1], c.value] }] : [];
  });
  return {
    tooltip: tooltip({
      trigger: 'item',
      formatter: (p: unknown) => {
        const [x] = params(p);
        if (!x) return '';
        const value = Array.isArray(x.value) ? x.value[2] : x.value;
        return `${x.name}\n${line(names.users, Number.isFinite(value) ? value : 0, figures)}`;
      },
    }),
    visualMap: {
      min: 0,
      max,
      left: 8,
      bottom: 8,
      calculable: true,
      seriesIndex: 0,
      inRange: { color: ['#e0f3ff', '#409eff', '#1d4f91'] },
    },
    geo: { map: 'china', roam: true, zoom: 1.15, emphasis: { label: { show: false } } },
    series: [
      { type: 'map', name: names.users, geoIndex: 0, data: provinces },
      {
        type: 'scatter',
        name: names.cities,
        coordinateSystem: 'geo',
        data: cities,
        symbolSize: (value: number[]) => Math.min(24, 6 + Math.sqrt(value[2] ?? 0) * 3),
        itemStyle: { color: '#f56c6c' },
      },
    ],
  };
}
