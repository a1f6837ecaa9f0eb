import { type Static, Type } from '@sinclair/typebox';
import { fileNameParam, MaxLength, pageParam, requiredString } from './fields.js';

/** Books or values per page of every OPDS feed: the reader API's default page (spec §8). */
export const OPDS_PAGE_SIZE = 20;

/** Query of the paged OPDS feeds without another parameter (new, popular, authors, publishers). */
export const OpdsPageQuery = Type.Object(
  { page: Type.Optional(pageParam()) },
  { $id: 'OpdsPageQuery', description: 'Page of an OPDS feed (20 entries a page).' },
);
export interface OpdsPageQuery extends Static<typeof OpdsPageQuery> {}

/** Query of a category's OPDS acquisition feed. */
export const OpdsCategoryQuery = Type.Object(
  {
    // ids are 32-bit integers in both dialects: a larger one would be a 500 on PostgreSQL
    id: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Category id.' }),
    page: Type.Optional(pageParam()),
  },
  { $id: 'OpdsCategoryQuery', description: "A category's books, as an OPDS acquisition feed." },
);
export interface OpdsCategoryQuery extends Static<typeof OpdsCategoryQuery> {}

/**
 * Query of an author's or a publisher's OPDS acquisition feed: the value exactly as listed. Its
 * longest is the longest author or publisher a book stores (MaxLength.text), not a search filter's:
 * every name the feeds list must open its feed.
 */
export const OpdsNameQuery = Type.Object(
  {
    name: requiredString(MaxLength.text, 'Author or publisher, exactly as the navigation feed lists it.'),
    page: Type.Optional(pageParam()),
  },
  { $id: 'OpdsNameQuery', description: "An author's or a publisher's books, as an OPDS acquisition feed." },
);
export interface OpdsNameQuery extends Static<typeof OpdsNameQuery> {}

/** Query of the OPDS search feeds (the OpenSearch template's {searchTerms}, OPDS 2's {?query}). */
export const OpdsSearchQuery = Type.Object(
  {
    query: requiredString(
      MaxLength.keyword,
      'Substring of title, author, publisher or category name, as the reader search takes it.',
    ),
    page: Type.Optional(pageParam()),
  },
  { $id: 'OpdsSearchQuery', description: 'Search of the catalogue, as an OPDS acquisition feed.' },
);
export interface OpdsSearchQuery extends Static<typeof OpdsSearchQuery> {}

/** Query of one publication: an OPDS 1.2 entry document or an OPDS 2.0 publication. */
export const OpdsPublicationQuery = Type.Object(
  { fileName: fileNameParam() },
  { $id: 'OpdsPublicationQuery', description: 'One book of the catalogue, as an OPDS publication.' },
);
export interface OpdsPublicationQuery extends Static<typeof OpdsPublicationQuery> {}
