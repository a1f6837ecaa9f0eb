import {
  OPDS_ACQUISITION,
  OPDS_ENTRY,
  OPDS_NAVIGATION,
  OPDS2_FEED,
  OPDS2_PUBLICATION,
  OPEN_SEARCH_DESCRIPTION,
} from '../opds-media.js';
import type { RouteSpec } from './route-spec.js';

// The OPDS catalogue for e-reader apps, under /opds (OPDS 1.2, Atom) and /opds/v2 (OPDS
// 2.0, JSON): public GETs answering documents of their media type, outside the envelopes; their errors
// are the reader envelope. Named one by one in the reader table, like the health routes.

export const opdsRoot = {
  method: 'GET',
  url: '/opds',
  summary: 'OPDS 1.2 catalogue root: new, popular, categories, authors, publishers, search',
  tags: ['opds'],
  reply: { document: [OPDS_NAVIGATION] },
} as const satisfies RouteSpec;

export const opdsNewBooks = {
  method: 'GET',
  url: '/opds/new',
  summary: 'OPDS 1.2: every book, newest first, 20 a page',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS_ACQUISITION] },
} as const satisfies RouteSpec;

export const opdsPopularBooks = {
  method: 'GET',
  url: '/opds/popular',
  summary: 'OPDS 1.2: the hotBook ranking (most viewed of 30 days, then of all time)',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS_ACQUISITION] },
} as const satisfies RouteSpec;

export const opdsCategories = {
  method: 'GET',
  url: '/opds/categories',
  summary: 'OPDS 1.2: the categories with books',
  tags: ['opds'],
  reply: { document: [OPDS_NAVIGATION] },
} as const satisfies RouteSpec;

export const opdsCategoryBooks = {
  method: 'GET',
  url: '/opds/category',
  summary: "OPDS 1.2: a category's books, 20 a page",
  tags: ['opds'],
  querystring: 'OpdsCategoryQuery',
  reply: { document: [OPDS_ACQUISITION] },
  errors: [404],
} as const satisfies RouteSpec;

export const opdsAuthors = {
  method: 'GET',
  url: '/opds/authors',
  summary: 'OPDS 1.2: authors, most books first, 20 a page',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS_NAVIGATION] },
} as const satisfies RouteSpec;

export const opdsAuthorBooks = {
  method: 'GET',
  url: '/opds/author',
  summary: 'OPDS 1.2: the books of exactly this author',
  tags: ['opds'],
  querystring: 'OpdsNameQuery',
  reply: { document: [OPDS_ACQUISITION] },
  errors: [404],
} as const satisfies RouteSpec;

export const opdsPublishers = {
  method: 'GET',
  url: '/opds/publishers',
  summary: 'OPDS 1.2: publishers, most books first, 20 a page',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS_NAVIGATION] },
} as const satisfies RouteSpec;

export const opdsPublisherBooks = {
  method: 'GET',
  url: '/opds/publisher',
  summary: 'OPDS 1.2: the books of exactly this publisher',
  tags: ['opds'],
  querystring: 'OpdsNameQuery',
  reply: { document: [OPDS_ACQUISITION] },
  errors: [404],
} as const satisfies RouteSpec;

export const opdsSearch = {
  method: 'GET',
  url: '/opds/search',
  summary: 'OPDS 1.2: the reader search (title, author, publisher, category name), 20 a page',
  tags: ['opds'],
  querystring: 'OpdsSearchQuery',
  reply: { document: [OPDS_ACQUISITION] },
} as const satisfies RouteSpec;

export const opdsPublication = {
  method: 'GET',
  url: '/opds/publication',
  summary: 'OPDS 1.2: one book as a complete entry',
  tags: ['opds'],
  querystring: 'OpdsPublicationQuery',
  reply: { document: [OPDS_ENTRY] },
  errors: [404],
} as const satisfies RouteSpec;

export const opdsSearchDescription = {
  method: 'GET',
  url: '/opds/opensearch',
  summary: 'OPDS 1.2: the OpenSearch description the feeds name for their search',
  tags: ['opds'],
  reply: { document: [OPEN_SEARCH_DESCRIPTION] },
} as const satisfies RouteSpec;

export const opds2Root = {
  method: 'GET',
  url: '/opds/v2',
  summary: 'OPDS 2.0 catalogue root: new, popular, categories, authors, publishers, search',
  tags: ['opds'],
  reply: { document: [OPDS2_FEED] },
} as const satisfies RouteSpec;

export const opds2NewBooks = {
  method: 'GET',
  url: '/opds/v2/new',
  summary: 'OPDS 2.0: every book, newest first, 20 a page',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS2_FEED] },
} as const satisfies RouteSpec;

export const opds2PopularBooks = {
  method: 'GET',
  url: '/opds/v2/popular',
  summary: 'OPDS 2.0: the hotBook ranking (most viewed of 30 days, then of all time)',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS2_FEED] },
} as const satisfies RouteSpec;

export const opds2Categories = {
  method: 'GET',
  url: '/opds/v2/categories',
  summary: 'OPDS 2.0: the categories with books',
  tags: ['opds'],
  reply: { document: [OPDS2_FEED] },
} as const satisfies RouteSpec;

export const opds2CategoryBooks = {
  method: 'GET',
  url: '/opds/v2/category',
  summary: "OPDS 2.0: a category's books, 20 a page",
  tags: ['opds'],
  querystring: 'OpdsCategoryQuery',
  reply: { document: [OPDS2_FEED] },
  errors: [404],
} as const satisfies RouteSpec;

export const opds2Authors = {
  method: 'GET',
  url: '/opds/v2/authors',
  summary: 'OPDS 2.0: authors, most books first, 20 a page',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS2_FEED] },
} as const satisfies RouteSpec;

export const opds2AuthorBooks = {
  method: 'GET',
  url: '/opds/v2/author',
  summary: 'OPDS 2.0: the books of exactly this author',
  tags: ['opds'],
  querystring: 'OpdsNameQuery',
  reply: { document: [OPDS2_FEED] },
  errors: [404],
} as const satisfies RouteSpec;

export const opds2Publishers = {
  method: 'GET',
  url: '/opds/v2/publishers',
  summary: 'OPDS 2.0: publishers, most books first, 20 a page',
  tags: ['opds'],
  querystring: 'OpdsPageQuery',
  reply: { document: [OPDS2_FEED] },
} as const satisfies RouteSpec;

export const opds2PublisherBooks = {
  method: 'GET',
  url: '/opds/v2/publisher',
  summary: 'OPDS 2.0: the books of exactly this publisher',
  tags: ['opds'],
  querystring: 'OpdsNameQuery',
  reply: { document: [OPDS2_FEED] },
  errors: [404],
} as const satisfies RouteSpec;

export const opds2Search = {
  method: 'GET',
  url: '/opds/v2/search',
  summary: 'OPDS 2.0: the reader search (title, author, publisher, category name), 20 a page',
  tags: ['opds'],
  querystring: 'OpdsSearchQuery',
  reply: { document: [OPDS2_FEED] },
} as const satisfies RouteSpec;

export const opds2Publication = {
  method: 'GET',
  url: '/opds/v2/publication',
  summary: 'OPDS 2.0: one book as a publication',
  tags: ['opds'],
  querystring: 'OpdsPublicationQuery',
  reply: { document: [OPDS2_PUBLICATION] },
  errors: [404],
} as const satisfies RouteSpec;
