import { type Static, Type } from '@sinclair/typebox';
import { ref, SCREEN_DAYS_DEFAULT, SCREEN_DAYS_MAX } from './fields.js';

/** Query of the four report and screen endpoints (decisions.md §5). */
export const ScreenQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SCREEN_DAYS_MAX,
        default: SCREEN_DAYS_DEFAULT,
        description: `Window in days (default ${SCREEN_DAYS_DEFAULT}, at most ${SCREEN_DAYS_MAX}).`,
      }),
    ),
  },
  { $id: 'ScreenQuery', description: 'Report window (decisions.md §5).' },
);
export interface ScreenQuery extends Static<typeof ScreenQuery> {}

const count = (description: string) => Type.Integer({ minimum: 0, description });

const activity = (description: string) =>
  Type.Object(
    {
      user: count('New users.'),
      shelf: count('New shelf entries.'),
      rank: count('New ratings.'),
      view: count('Book views.'),
      search: count('Searches.'),
    },
    { description },
  );

const trend = (description: string) =>
  Type.Object(
    {
      axis: Type.Array(Type.String(), { description: 'Day labels (YYYY-MM-DD), oldest first.' }),
      values: Type.Array(Type.Integer({ minimum: 0 }), { description: 'One value per day label.' }),
    },
    { description },
  );

/** GET /screen/data (decisions.md §5). */
export const ScreenData = Type.Object(
  {
    totals: Type.Object(
      {
        book: count('Books.'),
        user: count('Registered users.'),
        shelf: count('Shelf entries.'),
        rank: count('Ratings.'),
        view: count('Book views.'),
        search: count('Searches.'),
      },
      { description: 'All-time totals.' },
    ),
    today: activity('Activity of the current day.'),
    lastDay: activity('Activity of the previous day.'),
    growth: Type.Object(
      {
        userLastDay: Type.Number({ description: 'New users today relative to the previous day (ratio).' }),
        userLastMonth: Type.Number({
          description: 'New users of the window relative to the one before (ratio).',
        }),
      },
      { description: 'User growth ratios.' },
    ),
    userTrend: trend('New users per day over the window.'),
    viewTrend: trend('Book views per day over the window.'),
    category: Type.Array(
      Type.Object({
        category: Type.Integer({ description: 'Category id.' }),
        categoryText: Type.String({ description: 'Category name.' }),
        num: count('Books in the category.'),
        views: count('Views of books of the category in the window.'),
      }),
      { description: 'Per-category books and views.' },
    ),
    topBooks: Type.Array(
      Type.Object({
        no: Type.Integer({ minimum: 1, description: 'Position, starting at 1.' }),
        fileName: Type.String({ description: 'E-book file name.' }),
        title: Type.String({ description: 'Title.' }),
        readers: count('Distinct readers in the window.'),
      }),
      { maxItems: 10, description: 'The 10 most read books of the window.' },
    ),
    topSearches: Type.Array(
      Type.Object({
        no: Type.Integer({ minimum: 1, description: 'Position, starting at 1.' }),
        keyword: Type.String({ description: 'Search keyword.' }),
        count: count('Searches in the window.'),
      }),
      { maxItems: 10, description: 'The 10 most searched keywords of the window.' },
    ),
  },
  { $id: 'ScreenData', description: 'Report data (decisions.md §5).' },
);
export interface ScreenData extends Static<typeof ScreenData> {}

/** GET /screen/wordcloud item (decisions.md §5); at most 100, most frequent first. */
export const WordCloudItem = Type.Object(
  {
    word: Type.String({ description: 'Search keyword.' }),
    count: count('Searches of the keyword in the window.'),
    user: count('Distinct searchers of the keyword in the window.'),
  },
  { $id: 'WordCloudItem', description: 'Word-cloud item (decisions.md §5).' },
);
export interface WordCloudItem extends Static<typeof WordCloudItem> {}

/** GET /screen/map item and scatter data item (decisions.md §5). */
export const MapItem = Type.Object(
  {
    name: Type.String({ description: 'Province (map) or city (scatter) name.' }),
    value: count('Registered users.'),
  },
  { $id: 'MapItem', description: 'Users per region (decisions.md §5).' },
);
export interface MapItem extends Static<typeof MapItem> {}

/** GET /screen/map/scatter data (decisions.md §5). */
const lngLat = () =>
  Type.Unsafe<[number, number]>(
    Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[longitude, latitude]' }),
  );

export const ScatterData = Type.Object(
  {
    data: Type.Array(ref(MapItem), { description: 'Users per city.' }),
    // a pair as minItems/maxItems, not Type.Tuple: its draft-07 `items: [...]` is invalid in OpenAPI 3.1
    // (JSON Schema 2020-12 spells tuples `prefixItems`), and code generators refused the document
    geo: Type.Record(Type.String(), lngLat(), {
      description: 'Coordinates [lng, lat] of the cities the gazetteer knows, by city name.',
    }),
  },
  { $id: 'ScatterData', description: 'Users per city with coordinates (decisions.md §5).' },
);
export interface ScatterData extends Static<typeof ScatterData> {}
