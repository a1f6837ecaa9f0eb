import { describe, expect, it } from 'vitest';
import { Health, MapItem, Ready, ScatterData, ScreenData, ScreenQuery, WordCloudItem } from '../src/index.js';
import { check, parseQuery } from './helpers.js';

describe('decisions.md §5 ScreenQuery', () => {
  it('defaults days to 30 and converts strings', () => {
    expect(parseQuery(ScreenQuery, {})).toEqual({ days: 30 });
    expect(parseQuery(ScreenQuery, { days: '7' })).toEqual({ days: 7 });
  });
  it('days is an integer 1 to 366', () => {
    for (const days of [1, 366]) expect(check(ScreenQuery, { days })).toBe(true);
    for (const days of [0, 367, 1.5]) expect(check(ScreenQuery, { days })).toBe(false);
  });
});

describe('decisions.md §5 ScreenData', () => {
  const activity = { user: 1, shelf: 2, rank: 3, view: 4, search: 5 };
  const data = {
    totals: { book: 10, ...activity },
    today: activity,
    lastDay: activity,
    growth: { userLastDay: 0.5, userLastMonth: -0.25 },
    userTrend: { axis: ['2024-01-01', '2024-01-02'], values: [1, 2] },
    viewTrend: { axis: ['2024-01-01', '2024-01-02'], values: [3, 4] },
    category: [{ category: 1, categoryText: 'History', num: 5, views: 9 }],
    topBooks: [{ no: 1, fileName: 'f', title: 't', readers: 3 }],
    topSearches: [{ no: 1, keyword: 'js', count: 8 }],
  };
  it('accepts the report', () => expect(check(ScreenData, data)).toBe(true));
  it('rejects missing or mistyped parts', () => {
    expect(check(ScreenData, { ...data, totals: activity })).toBe(false);
    expect(check(ScreenData, { ...data, userTrend: { axis: [], values: [1.5] } })).toBe(false);
    expect(check(ScreenData, { ...data, topBooks: Array(11).fill(data.topBooks[0]) })).toBe(false);
  });
});

describe('decisions.md §5 word cloud and maps', () => {
  it('WordCloudItem is {word, count, user}', () => {
    expect(check(WordCloudItem, { word: 'js', count: 3, user: 2 })).toBe(true);
    expect(check(WordCloudItem, { word: 'js', count: 3 })).toBe(false);
  });
  it('MapItem is {name, value}', () => {
    expect(check(MapItem, { name: 'Beijing', value: 3 })).toBe(true);
    expect(check(MapItem, { name: 'Beijing', value: '3' })).toBe(false);
  });
  it('ScatterData has data items and [lng, lat] pairs by name', () => {
    const scatter = {
      data: [
        { name: 'Shanghai', value: 2 },
        { name: 'Nowhere', value: 1 },
      ],
      geo: { Shanghai: [121.47, 31.23] },
    };
    expect(check(ScatterData, scatter)).toBe(true);
    expect(check(ScatterData, { ...scatter, geo: { Shanghai: [121.47] } })).toBe(false);
    expect(check(ScatterData, { ...scatter, data: [{ name: 'x' }] })).toBe(false);
  });
});

describe('decisions.md §1 Health and Ready', () => {
  it('health is {status: ok}', () => {
    expect(check(Health, { status: 'ok' })).toBe(true);
    expect(check(Health, { status: 'down' })).toBe(false);
  });
  it('ready reports the database', () => {
    expect(check(Ready, { status: 'ok', database: true })).toBe(true);
    expect(check(Ready, { status: 'unavailable', database: false })).toBe(true);
    expect(check(Ready, { status: 'down', database: false })).toBe(false);
  });
});
