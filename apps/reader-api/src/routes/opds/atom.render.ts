import type { FeedRef, NavigationEntry, OpdsFeed } from '@readlib/catalog';
import { OpdsMediaType } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import { bookUrn, countText, isoTime, languageTag, type OpdsSite } from './opds-site.js';
import { attributes, textElement } from './xml-text.js';

const NAMESPACES = attributes({
  xmlns: 'http://www.w3.org/2005/Atom',
  'xmlns:dc': 'http://purl.org/dc/terms/',
  'xmlns:opds': 'http://opds-spec.org/2010/catalog',
  'xmlns:opensearch': 'http://a9.com/-/spec/opensearch/1.1/',
});
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const typeOf = (ref: FeedRef) =>
  ref.kind === 'navigation' ? OpdsMediaType.navigation : OpdsMediaType.acquisition;

/** An OPDS 1.2 catalog feed (Atom, RFC 4287), `updated` being when it was built. */
export function renderAtomFeed(feed: OpdsFeed, updated: number, site: OpdsSite): string {
  const href = (path: string) => site.feed('atom', path);
  const link = (rel: string, ref: FeedRef, title?: string) =>
    `<link${attributes({ rel, href: href(ref.path), type: typeOf(ref), title })}/>`;
  const root: FeedRef = { path: '', kind: 'navigation' };
  const parts = [
    DECLARATION,
    `<feed${NAMESPACES}>`,
    textElement('id', feed.id),
    textElement('title', feed.title),
    textElement('updated', isoTime(updated)),
    // Atom wants an author of a feed whose entries may have none (navigation entries)
    catalogueAuthor(site),
    link('self', feed.self),
    link('start', root, 'Reading library'),
    feed.up ? link('up', feed.up) : '',
    `<link${attributes({ rel: 'search', href: site.openSearch(), type: OpdsMediaType.openSearch, title: 'Search' })}/>`,
    `<link${attributes({ rel: 'search', href: href('/search?query={searchTerms}'), type: OpdsMediaType.acquisition, title: 'Search' })}/>`,
  ];
  const paging = feed.paging;
  if (paging) {
    const kind = feed.self.kind;
    parts.push(link('first', { path: paging.pathOf(1), kind }));
    if (paging.page > 1) parts.push(link('previous', { path: paging.pathOf(paging.page - 1), kind }));
    if (paging.hasNext) parts.push(link('next', { path: paging.pathOf(paging.page + 1), kind }));
    parts.push(`<opensearch:itemsPerPage>${paging.size}</opensearch:itemsPerPage>`);
    parts.push(`<opensearch:startIndex>${(paging.page - 1) * paging.size + 1}</opensearch:startIndex>`);
  }
  for (const entry of feed.navigation ?? []) parts.push(navigationEntry(entry, updated, href));
  for (const book of feed.books ?? []) parts.push(bookEntry(book, site, ''));
  parts.push('</feed>\n');
  return parts.join('');
}

/** The catalogue as the author of its feeds. */
const catalogueAuthor = (site: OpdsSite) =>
  `<author><name>Reading library</name>${textElement('uri', site.feed('atom', ''))}</author>`;

/** One book as an OPDS 1.2 complete entry document (what an entry's `alternate` link leads to). */
export function renderAtomEntry(book: BookRow, site: OpdsSite): string {
  return `${DECLARATION}${bookEntry(book, site, NAMESPACES)}\n`;
}

/** The OpenSearch 1.1 description the feeds' `search` link names: a template over the reader search. */
export function renderOpenSearch(site: OpdsSite): string {
  const template = (type: string) =>
    `<Url${attributes({ type, template: site.feed('atom', '/search?query={searchTerms}') })}/>`;
  return [
    DECLARATION,
    '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">',
    '<ShortName>Reading library</ShortName>',
    '<Description>Title, author, publisher or category</Description>',
    '<InputEncoding>UTF-8</InputEncoding>',
    '<OutputEncoding>UTF-8</OutputEncoding>',
    template(OpdsMediaType.acquisition),
    template('application/atom+xml'),
    '</OpenSearchDescription>\n',
  ].join('');
}

function navigationEntry(entry: NavigationEntry, updated: number, href: (path: string) => string): string {
  return [
    '<entry>',
    textElement('id', entry.id),
    textElement('title', entry.title),
    textElement('updated', isoTime(updated)),
    // Atom wants content or an alternate link in every entry
    textElement('content', entry.summary ?? countText(entry.count, entry.title), ' type="text"'),
    `<link${attributes({ rel: entry.rel, href: href(entry.target.path), type: typeOf(entry.target), title: entry.title })}/>`,
    '</entry>',
  ].join('');
}

function bookEntry(book: BookRow, site: OpdsSite, namespaces: string): string {
  const link = (rel: string, l: { href: string; type: string }, title?: string) =>
    `<link${attributes({ rel, href: l.href, type: l.type, title })}/>`;
  const cover = site.cover(book);
  const author = book.author
    ? `<author>${textElement('name', book.author)}${textElement('uri', site.feed('atom', `/author?name=${encodeURIComponent(book.author)}`))}</author>`
    : '';
  // an entry document has no feed whose author stands in for a book without one: Atom then wants an
  // atom:source that names it (RFC 4287 §4.1.2)
  const source = !author && namespaces ? `<source>${catalogueAuthor(site)}</source>` : '';
  return [
    `<entry${namespaces}>`,
    textElement('id', bookUrn(book)),
    // an entry needs a title: a book stored without one still gets its file name
    textElement('title', book.title || book.file_name),
    textElement('updated', isoTime(Number(book.updated_at))),
    author,
    source,
    textElement('dc:publisher', book.publisher),
    textElement('dc:language', languageTag(book) ?? ''),
    `<category${attributes({ scheme: 'urn:readlib:category', term: String(book.category_id), label: book.category_name })}/>`,
    textElement('summary', book.description, ' type="text"'),
    cover ? link('http://opds-spec.org/image', cover) : '',
    cover ? link('http://opds-spec.org/image/thumbnail', cover) : '',
    link('http://opds-spec.org/acquisition/open-access', site.acquisition(book)),
    link('alternate', site.publication('atom', book), 'Full entry'),
    '</entry>',
  ].join('');
}
