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
  // a narrow chart has room for fewer figures than ECharts' ticks: those that would touch are left out
  axisLabel: { formatter: (n: number) => figures.compact(n), hideOverlap: true },
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
/**
 * The gap between the trend's plot and its dates: the value axis's 0 is written level with the plot's
 * foot, right above the first date: ECharts' default gap of 8 px leaves the two touching.
 */
export const TREND_DATE_MARGIN = 14;
/** The widest a category's name is drawn under the axis before it is cut (the tooltip has it whole). */
export const CATEGORY_LABEL_WIDTH = 140;
/** The slant of the category names, in degrees. */
const CATEGORY_LABEL_ROTATE = 35;
/** The widest a category's name is drawn beside the bars of a narrow chart (about 15 Latin letters). */
export const CATEGORY_NARROW_LABEL_WIDTH = 110;
/** The height of a category's pair of bars, and of its name, in a narrow chart. */
export const CATEGORY_NARROW_ROW = 28;

/**
 * The height of a narrow window's category chart: a row per category under the legend, the value axis
 * below; never lower than the other charts.
 */
export const categoryChartHeight = (count: number): number => Math.max(320, 72 + count * CATEGORY_NARROW_ROW);

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
/**
 * The cloud's words are placed from their widths measured on a canvas of no language, and drawn in the
 * page's, whose generic `sans-serif` is another font in Chinese (Latin letters of a CJK font, wider):
 * a long keyword placed to fit would run out of the chart. Fonts named first are the same in both.
 */
export const WORD_FONTS =
  '"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", sans-serif';
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
    xAxis: {
      type: 'category',
      data: trend.axis,
      boundaryGap: false,
      axisLabel: { hideOverlap: true, margin: TREND_DATE_MARGIN },
    },
    yAxis: valueAxis(figures),
    series: [
      { type: 'line', name: seriesName, data: trend.values, smooth: true, areaStyle: { opacity: 0.15 } },
    ],
  };
}

/**
 * Books and views per category: columns over slanted names; in a narrow window (a phone), bars to the
 * right of names written level, a row each (`categoryChartHeight`), since a phone's width holds a
 * dozen slanted names only one over the next.
 */
export function categoryOption(
  categories: ScreenData['category'],
  names: { books: string; views: string },
  figures: Figures = ENGLISH,
  narrow = false,
): EChartsCoreOption {
  const labels = categories.map((c) => c.categoryText);
  // long names get the room they need beside the axis (containLabel), cut at a width; the tooltip of a
  // column or a row (the pointer anywhere over it) has the whole name
  const categoryAxis = narrow
    ? {
        type: 'category',
        data: labels,
        inverse: true,
        axisLabel: { interval: 0, width: CATEGORY_NARROW_LABEL_WIDTH, overflow: 'truncate' },
      }
    : {
        type: 'category',
        data: labels,
        axisLabel: {
          rotate: CATEGORY_LABEL_ROTATE,
          interval: 0,
          width: CATEGORY_LABEL_WIDTH,
          overflow: 'truncate',
        },
      };
  return {
    grid: {
      left: narrow ? 8 : categoryLeft(categories[0]?.categoryText),
      right: narrow ? 24 : 16,
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
    xAxis: narrow ? valueAxis(figures) : categoryAxis,
    yAxis: narrow ? categoryAxis : valueAxis(figures),
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
        // the whole card (fitWordCloud makes it whole cells once the card's size is known), words kept
        // apart (gridSize: the gap between words, in px), some turned upright so more fit; smaller
        // rather than dropped when they do not fit
        width: '100%',
        height: '100%',
        shape: 'square',
        keepAspect: false,
        sizeRange: wordSizes(words.length),
        rotationRange: [0, 90],
        rotationStep: 90,
        gridSize: WORD_GAP,
        drawOutOfBound: false,
        shrinkToFit: true,
        textStyle: { fontFamily: WORD_FONTS },
        // the same words in the same places on every draw
        layoutAnimation: false,
        // `value` sizes the word (wordWeights); the tooltip reads the searches themselves
        data: words.map((w, i) => ({ name: w.word, value: weights[i], count: w.count, users: w.user })),
      },
    ],
  };
}

/** The length of the map's colour scale, and the room under the map for it (its labels on either end). */
export const MAP_SCALE_LENGTH = 140;
export const MAP_BOTTOM = 44;

/**
 * The word cloud in a box of whole WORD_GAP cells, centred in the chart: the cloud places its words on a
 * grid of such cells counted up to the box's edge and past it (24 cells for 324 px), so in a box of
 * another size a word given the last cells runs up to 13 px out of the chart. A few px are left on each
 * side for a word turned upright at the edge, whose glyphs reach past its box.
 */
export function fitWordCloud(
  option: EChartsCoreOption,
  size: { width: number; height: number },
): EChartsCoreOption {
  const whole = (px: number) => Math.max(WORD_GAP, Math.floor((px - 4) / WORD_GAP) * WORD_GAP);
  const { series } = option as { series: object[] };
  return {
    ...option,
    series: series.map((s) => ({ ...s, width: whole(size.width), height: whole(size.height) })),
  };
}

/**
 * The longitudes and latitudes the China map spans (its westernmost point to its easternmost, the
 * Nansha islands to the Heilongjiang): a city outside them would be drawn beside the map, off its
 * box, so it is listed under the regions not on the map instead.
 */
const CHINA_MAP_EXTENT = { west: 73.4, east: 135.1, south: 3.4, north: 53.6 };

/** The coordinates a city has on the China map: none when it has none, or they lie off the map. */
export function onChinaMap(at: readonly number[] | undefined): readonly [number, number] | undefined {
  if (!at || at.length < 2) return undefined;
  const [lng, lat] = at as [number, number];
  const { west, east, south, north } = CHINA_MAP_EXTENT;
  return lng >= west && lng <= east && lat >= south && lat <= north ? [lng, lat] : undefined;
}

export function mapOption(
  provinces: MapItem[],
  scatter: ScatterData,
  names: { users: string; cities: string },
  figures: Figures = ENGLISH,
): EChartsCoreOption {
  const max = Math.max(1, ...provinces.map((p) => p.value));
  const cities = scatter.data.flatMap((c) => {
    const at = onChinaMap(scatter.geo[c.name]);
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
    // the scale lies under the map, the map in the box above it: a scale beside the map lies over its
    // western provinces in a narrow card
    visualMap: {
      min: 0,
      max,
      orient: 'horizontal',
      left: 'center',
      bottom: 4,
      itemWidth: 12,
      itemHeight: MAP_SCALE_LENGTH,
      calculable: true,
      seriesIndex: 0,
      inRange: { color: ['#e0f3ff', '#409eff', '#1d4f91'] },
    },
    geo: {
      map: 'china',
      roam: true,
      left: 8,
      right: 8,
      top: 8,
      bottom: MAP_BOTTOM,
      emphasis: { label: { show: false } },
    },
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
