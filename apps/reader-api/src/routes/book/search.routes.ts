import { listBooks, search } from '@readlib/catalog';
import type { FastifyPluginAsync } from 'fastify';
import { KeptEnvelopes } from '../kept-envelopes.js';
import { type RouteOptions, serve } from '../route-options.js';

/** Keyword search and filtered book lists (spec §4.5, §4.6; decisions.md §3). */
export const searchRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  const searches = new KeptEnvelopes(ctx.keeps.versions, 'search answers, serialised');
  const lists = new KeptEnvelopes(ctx.keeps.versions, 'search-list pages, serialised');
  // HEAD answers the same headers without adding to the search log (hot searches, word cloud)
  serve(app, 'searchBooks', async (req, reply) =>
    searches.send(reply, await search(ctx, req.query, req.method !== 'HEAD')),
  );
  serve(app, 'searchList', async (req, reply) => lists.send(reply, await listBooks(ctx, req.query)));
};
