import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cityScatter, provinceMap, screenData, wordCloud } from '@readlib/catalog';
import {
  MapItem,
  ref,
  SCREEN_DAYS_DEFAULT,
  ScatterData,
  ScreenData,
  ScreenQuery,
  WordCloudItem,
} from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { ok, responses } from '../responses.js';

const tags = ['screen'];

/** Report and screen endpoints (decisions.md §5): computed from our own data over a `days` window. */
export const screenRoute: FastifyPluginAsyncTypebox = async (app) => {
  const days = (q: { days?: number }) => q.days ?? SCREEN_DAYS_DEFAULT;
  const { db, now, config } = app.ctx;
  const offset = config.reportUtcOffsetMs;

  app.get(
    '/screen/data',
    {
      schema: {
        operationId: 'getScreenData',
        tags,
        summary: 'Totals, today and yesterday, growth, trends, categories, top books and searches',
        querystring: ref(ScreenQuery),
        response: responses(ref(ScreenData)),
      },
    },
    async (req) => ok(await screenData(db, days(req.query), now(), offset)),
  );

  app.get(
    '/screen/wordcloud',
    {
      schema: {
        operationId: 'getWordCloud',
        tags,
        summary: 'Search keywords of the window with searches and distinct searchers (at most 100)',
        querystring: ref(ScreenQuery),
        response: responses(Type.Array(ref(WordCloudItem))),
      },
    },
    async (req) => ok(await wordCloud(db, days(req.query), now(), offset)),
  );

  app.get(
    '/screen/map',
    {
      schema: {
        operationId: 'getScreenMap',
        tags,
        summary: 'Users registered in the window, per province',
        querystring: ref(ScreenQuery),
        response: responses(Type.Array(ref(MapItem))),
      },
    },
    async (req) => ok(await provinceMap(db, days(req.query), now(), offset)),
  );

  app.get(
    '/screen/map/scatter',
    {
      schema: {
        operationId: 'getScreenScatter',
        tags,
        summary: 'Users registered in the window, per city, with coordinates of known cities',
        querystring: ref(ScreenQuery),
        response: responses(ref(ScatterData)),
      },
    },
    async (req) => ok(await cityScatter(db, days(req.query), now(), offset)),
  );
};
