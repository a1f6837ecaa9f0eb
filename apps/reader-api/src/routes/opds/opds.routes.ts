import { readFileSync } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type FeedKind,
  logOpdsSearch,
  type OpdsFeedRequest,
  planOpdsFeed,
  planOpdsPublication,
} from '@readlib/catalog';
import {
  OpdsCategoryQuery,
  OpdsMediaType,
  OpdsNameQuery,
  OpdsPageQuery,
  OpdsPublicationQuery,
  OpdsSearchQuery,
  ref,
} from '@readlib/contracts';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteOptions } from '../route-options.js';
import { renderAtomEntry, renderAtomFeed, renderOpenSearch } from './atom.render.js';
import { sendOpds } from './feed-answers.js';
import { renderJsonFeed, renderJsonPublication } from './json.render.js';
import { type Dialect, OPDS_ROOTS, OpdsSite } from './opds-site.js';

type Query = Record<string, string | number | undefined>;

/** One feed of the catalogue, served under both dialects' roots. */
interface FeedRoute {
  /** under the dialect's root ('' is the root itself) */
  path: string;
  summary: string;
  kind: FeedKind;
  querystring?: TSchema;
  request(query: Query): OpdsFeedRequest;
}

const page = (q: Query) => Number(q.page ?? 1);

/** Every OPDS feed (issue #32), declared in one place; each is served as OPDS 1.2 and as OPDS 2.0. */
export const OPDS_FEEDS: FeedRoute[] = [
  { path: '', summary: 'Catalogue root', kind: 'navigation', request: () => ({ feed: 'root' }) },
  {
    path: '/new',
    summary: 'Newest books',
    kind: 'acquisition',
    querystring: OpdsPageQuery,
    request: (q) => ({ feed: 'new', page: page(q) }),
  },
  {
    path: '/popular',
    summary: 'Most viewed books (the hotBook ranking)',
    kind: 'acquisition',
    querystring: OpdsPageQuery,
    request: (q) => ({ feed: 'popular', page: page(q) }),
  },
  {
    path: '/categories',
    summary: 'Categories with books',
    kind: 'navigation',
    request: () => ({ feed: 'categories' }),
  },
  {
    path: '/category',
    summary: "A category's books",
    kind: 'acquisition',
    querystring: OpdsCategoryQuery,
    request: (q) => ({ feed: 'category', id: Number(q.id), page: page(q) }),
  },
  {
    path: '/authors',
    summary: 'Authors, most books first',
    kind: 'navigation',
    querystring: OpdsPageQuery,
    request: (q) => ({ feed: 'authors', page: page(q) }),
  },
  {
    path: '/author',
    summary: "An author's books",
    kind: 'acquisition',
    querystring: OpdsNameQuery,
    request: (q) => ({ feed: 'author', name: String(q.name), page: page(q) }),
  },
  {
    path: '/publishers',
    summary: 'Publishers, most books first',
    kind: 'navigation',
    querystring: OpdsPageQuery,
    request: (q) => ({ feed: 'publishers', page: page(q) }),
  },
  {
    path: '/publisher',
    summary: "A publisher's books",
    kind: 'acquisition',
    querystring: OpdsNameQuery,
    request: (q) => ({ feed: 'publisher', name: String(q.name), page: page(q) }),
  },
  {
    path: '/search',
    summary: 'Search (title, author, publisher, category), as the reader search',
    kind: 'acquisition',
    querystring: OpdsSearchQuery,
    request: (q) => ({ feed: 'search', query: String(q.query), page: page(q) }),
  },
];

const FEED_TYPES: Record<Dialect, Record<FeedKind, string>> = {
  atom: { navigation: OpdsMediaType.navigation, acquisition: OpdsMediaType.acquisition },
  json: { navigation: OpdsMediaType.feed2, acquisition: OpdsMediaType.feed2 },
};
const RENDER_FEED = { atom: renderAtomFeed, json: renderJsonFeed };
const RENDER_PUBLICATION = { atom: renderAtomEntry, json: renderJsonPublication };
const PUBLICATION_TYPES: Record<Dialect, string> = {
  atom: OpdsMediaType.entry,
  json: OpdsMediaType.publication2,
};
const DAY_S = 24 * 60 * 60;

/**
 * The catalogue for e-reader apps (KOReader, Thorium, Moon+ Reader...): OPDS 1.2 under /opds, OPDS
 * 2.0 under /opds/v2, read-only and public like the reader API's browsing endpoints. Not in the
 * OpenAPI document: its answers are Atom and OPDS JSON for those apps, not the reader envelope (errors
 * still are).
 */
export const opdsRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { ctx, config }) => {
  const site = new OpdsSite(config.publicBaseUrl, ctx.urls);
  const hide = { hide: true, tags: ['opds'] };
  for (const dialect of ['atom', 'json'] as const) {
    for (const route of OPDS_FEEDS) {
      const urls = route.path
        ? [OPDS_ROOTS[dialect] + route.path]
        : [OPDS_ROOTS[dialect], `${OPDS_ROOTS[dialect]}/`];
      const schema = {
        ...hide,
        summary: route.summary,
        ...(route.querystring ? { querystring: ref(route.querystring) } : {}),
      };
      for (const url of urls) {
        app.get(url, { schema }, async (req: FastifyRequest, reply: FastifyReply) => {
          const startedAt = ctx.now();
          const request = route.request(req.query as Query);
          const plan = await planOpdsFeed(ctx, request);
          // a search's first page is a reader's search (hot searches, word cloud); HEAD searches nothing
          if (request.feed === 'search' && request.page === 1 && req.method === 'GET')
            await logOpdsSearch(ctx, request.query);
          return sendOpds(ctx, req, reply, {
            key: `${dialect}:feed`,
            plan,
            type: FEED_TYPES[dialect][route.kind],
            render: (feed, builtAt) => RENDER_FEED[dialect](feed, builtAt, site),
            startedAt,
          });
        });
      }
    }
    app.get(
      `${OPDS_ROOTS[dialect]}/publication`,
      { schema: { ...hide, summary: 'One book', querystring: ref(OpdsPublicationQuery) } },
      async (req, reply) => {
        const startedAt = ctx.now();
        const plan = await planOpdsPublication(ctx, req.query.fileName);
        return sendOpds(ctx, req, reply, {
          key: `${dialect}:publication`,
          plan,
          type: PUBLICATION_TYPES[dialect],
          render: (book) => RENDER_PUBLICATION[dialect](book, site),
          startedAt,
        });
      },
    );
  }

  const openSearch = renderOpenSearch(site);
  app.get(
    '/opds/search.xml',
    { schema: { ...hide, summary: 'OpenSearch description' } },
    async (_req, reply) =>
      reply
        .header('cache-control', `public, max-age=${DAY_S}`)
        .type(OpdsMediaType.openSearch)
        .send(openSearch),
  );
  const noCover = readFileSync(new URL('./no-cover.png', import.meta.url));
  app.get(
    '/opds/no-cover.png',
    { schema: { ...hide, summary: 'Cover of books without one' } },
    async (_req, reply) =>
      reply.header('cache-control', `public, max-age=${DAY_S}`).type('image/png').send(noCover),
  );
};
