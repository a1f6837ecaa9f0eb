import { readFileSync } from 'node:fs';
import { logOpdsSearch, type OpdsFeedRequest, planOpdsFeed, planOpdsPublication } from '@readlib/catalog';
import { readerRoutes } from '@readlib/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type RouteOptions, serve } from '../route-options.js';
import { renderAtomEntry, renderAtomFeed, renderOpenSearch } from './atom.render.js';
import { OpdsAnswers } from './feed-answers.js';
import { renderJsonFeed, renderJsonPublication } from './json.render.js';
import { type Dialect, OpdsSite } from './opds-site.js';

type Query = Record<string, string | number | undefined>;
type OperationId = keyof typeof readerRoutes;

/** A feed of the catalogue: its route in each dialect (the reader table) and what it asks for. */
interface FeedRoute {
  ids: Record<Dialect, OperationId>;
  request(query: Query): OpdsFeedRequest;
  /** also served with a trailing slash (the root, as apps are often given it) */
  slash?: true;
}

const page = (q: Query) => Number(q.page ?? 1);

/** Every OPDS feed; each is served as OPDS 1.2 and as OPDS 2.0. */
const FEEDS: FeedRoute[] = [
  { ids: { atom: 'getOpdsRoot', json: 'getOpds2Root' }, request: () => ({ feed: 'root' }), slash: true },
  {
    ids: { atom: 'getOpdsNewBooks', json: 'getOpds2NewBooks' },
    request: (q) => ({ feed: 'new', page: page(q) }),
  },
  {
    ids: { atom: 'getOpdsPopularBooks', json: 'getOpds2PopularBooks' },
    request: (q) => ({ feed: 'popular', page: page(q) }),
  },
  { ids: { atom: 'getOpdsCategories', json: 'getOpds2Categories' }, request: () => ({ feed: 'categories' }) },
  {
    ids: { atom: 'getOpdsCategoryBooks', json: 'getOpds2CategoryBooks' },
    request: (q) => ({ feed: 'category', id: Number(q.id), page: page(q) }),
  },
  {
    ids: { atom: 'getOpdsAuthors', json: 'getOpds2Authors' },
    request: (q) => ({ feed: 'authors', page: page(q) }),
  },
  {
    ids: { atom: 'getOpdsAuthorBooks', json: 'getOpds2AuthorBooks' },
    request: (q) => ({ feed: 'author', name: String(q.name), page: page(q) }),
  },
  {
    ids: { atom: 'getOpdsPublishers', json: 'getOpds2Publishers' },
    request: (q) => ({ feed: 'publishers', page: page(q) }),
  },
  {
    ids: { atom: 'getOpdsPublisherBooks', json: 'getOpds2PublisherBooks' },
    request: (q) => ({ feed: 'publisher', name: String(q.name), page: page(q) }),
  },
  {
    ids: { atom: 'searchOpds', json: 'searchOpds2' },
    request: (q) => ({ feed: 'search', query: String(q.query), page: page(q) }),
  },
];
const PUBLICATIONS: Record<Dialect, OperationId> = {
  atom: 'getOpdsPublication',
  json: 'getOpds2Publication',
};

const RENDER_FEED = { atom: renderAtomFeed, json: renderJsonFeed };
const RENDER_PUBLICATION = { atom: renderAtomEntry, json: renderJsonPublication };
const DAY_S = 24 * 60 * 60;

/** The media type a route of the table answers. */
function documentType(id: OperationId): string {
  const reply = readerRoutes[id].reply;
  if (!('document' in reply)) throw new Error(`${id} does not answer a document`);
  return reply.document[0];
}

/**
 * The catalogue for e-reader apps (KOReader, Thorium, Moon+ Reader...): OPDS 1.2 under /opds, OPDS
 * 2.0 under /opds/v2, read-only and public like the reader API's browsing endpoints. The routes are
 * the reader table's (`reply: { document }`); their errors are the reader envelope.
 */
export const opdsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, config }) => {
  const site = new OpdsSite(config.publicBaseUrl, ctx.urls);
  const answers = new OpdsAnswers(ctx, config.publicBaseUrl);
  for (const dialect of ['atom', 'json'] as const) {
    for (const route of FEEDS) {
      const id = route.ids[dialect];
      const type = documentType(id);
      const handler = async (req: FastifyRequest, reply: FastifyReply) => {
        const startedAt = ctx.now();
        const request = route.request(req.query as Query);
        const plan = await planOpdsFeed(ctx, request);
        // a search's first page is a reader's search (hot searches, word cloud); HEAD searches nothing
        if (request.feed === 'search' && request.page === 1 && req.method === 'GET')
          await logOpdsSearch(ctx, request.query);
        return answers.send(req, reply, {
          key: `${dialect}:feed`,
          plan,
          type,
          render: (feed, builtAt) => RENDER_FEED[dialect](feed, builtAt, site),
          startedAt,
        });
      };
      serve(app, id, handler);
      // the same answer, not a second operation of the API
      if (route.slash) app.get(`${readerRoutes[id].url}/`, { schema: { hide: true } }, handler);
    }
    const id = PUBLICATIONS[dialect];
    const type = documentType(id);
    serve(app, id, async (req, reply) => {
      const startedAt = ctx.now();
      const plan = await planOpdsPublication(ctx, (req.query as { fileName: string }).fileName);
      return answers.send(req, reply, {
        key: `${dialect}:publication`,
        plan,
        type,
        render: (book) => RENDER_PUBLICATION[dialect](book, site),
        startedAt,
      });
    });
  }

  const openSearch = renderOpenSearch(site);
  serve(app, 'getOpdsSearchDescription', async (_req, reply) =>
    reply
      .header('cache-control', `public, max-age=${DAY_S}`)
      .type(documentType('getOpdsSearchDescription'))
      .send(openSearch),
  );
  // an image the feeds link to, like the store's files under /res/: not an operation of the API
  const noCover = readFileSync(new URL('./no-cover.png', import.meta.url));
  app.get('/opds/no-cover.png', { schema: { hide: true } }, async (_req, reply) =>
    reply.header('cache-control', `public, max-age=${DAY_S}`).type('image/png').send(noCover),
  );
};
