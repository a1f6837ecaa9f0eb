/**
 * Media types of the OPDS catalogue: OPDS 1.2 is Atom with the OPDS profile, OPDS 2.0 is
 * JSON. The route table, the feeds' links and the tests use these, so a client's content negotiation
 * sees one spelling everywhere. Plain constants, importing nothing: the route tables name them, and a
 * bundle that leaves a table out must be able to leave them out too.
 */
export const OPDS_NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const OPDS_ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
export const OPDS_ENTRY = 'application/atom+xml;type=entry;profile=opds-catalog';
export const OPEN_SEARCH_DESCRIPTION = 'application/opensearchdescription+xml';
export const OPDS2_FEED = 'application/opds+json';
export const OPDS2_PUBLICATION = 'application/opds-publication+json';
export const EPUB = 'application/epub+zip';

/** The same, by role. */
export const OpdsMediaType = {
  navigation: OPDS_NAVIGATION,
  acquisition: OPDS_ACQUISITION,
  entry: OPDS_ENTRY,
  openSearch: OPEN_SEARCH_DESCRIPTION,
  feed2: OPDS2_FEED,
  publication2: OPDS2_PUBLICATION,
  epub: EPUB,
} as const;
