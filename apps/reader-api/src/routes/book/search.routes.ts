import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listBooks, search } from '@readlib/catalog';
import { BookSummary, ref, SearchListQuery, SearchQuery, SearchResult } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { KeptEnvelopes } from '../kept-envelopes.js';
import { type RouteOptions, responses } from '../route-options.js';

const tags = ['search'];

/** Keyword search and filtered book lists (spec §4.5, §4.6; decisions.md §3). */
export const searchRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { ctx }) => {
  const searches = new KeptEnvelopes();
  const lists = new KeptEnvelopes();
  app.get(
    '/book/search',
    {
      schema: {
        operationId: 'searchBooks',
        tags,
        summary: 'Search title, author, publisher and category name',
        querystring: ref(SearchQuery),
        response: responses(ref(SearchResult)),
      },
    },
    // HEAD answers the same headers without adding to the search log (hot searches, word cloud)
    async (req, reply) => searches.send(reply, await search(ctx, req.query, req.method !== 'HEAD')),
  );

  app.get(
    '/book/search-list',
    {
      schema: {
        operationId: 'searchList',
        tags,
        summary: 'Books by publisher, author, category name or id (filters combine with AND)',
        querystring: ref(SearchListQuery),
        response: responses(Type.Array(ref(BookSummary))),
      },
    },
    async (req, reply) => lists.send(reply, await listBooks(ctx, req.query)),
  );
};
