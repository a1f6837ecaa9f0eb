import type { OpdsFeed } from '@readlib/catalog';
import { OpdsMediaType } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import { bookUrn, isoTime, type Link, languageTag, type OpdsSite } from './opds-site.js';

interface Link2 {
  href: string;
  type: string;
  rel?: string;
  title?: string;
  templated?: boolean;
  properties?: { numberOfItems: number };
}

/** An OPDS 2.0 feed (JSON), `updated` being when it was built. */
export function renderJsonFeed(feed: OpdsFeed, updated: number, site: OpdsSite): string {
  const href = (path: string) => site.feed('json', path);
  const link = (rel: string, path: string, title?: string): Link2 => ({
    rel,
    href: href(path),
    type: OpdsMediaType.feed2,
    ...(title ? { title } : {}),
  });
  const links: Link2[] = [
    link('self', feed.self.path),
    link('start', '', 'Reading library'),
    ...(feed.up ? [link('up', feed.up.path)] : []),
    {
      rel: 'search',
      href: href('/search{?query}'),
      type: OpdsMediaType.feed2,
      templated: true,
      title: 'Search',
    },
  ];
  const paging = feed.paging;
  if (paging) {
    links.push(link('first', paging.pathOf(1)));
    if (paging.page > 1) links.push(link('previous', paging.pathOf(paging.page - 1)));
    if (paging.hasNext) links.push(link('next', paging.pathOf(paging.page + 1)));
  }
  const doc = {
    metadata: {
      title: feed.title,
      modified: isoTime(updated),
      ...(paging ? { itemsPerPage: paging.size, currentPage: paging.page } : {}),
    },
    links,
    ...(feed.navigation
      ? {
          navigation: feed.navigation.map(
            (n): Link2 => ({
              href: href(n.target.path),
              type: OpdsMediaType.feed2,
              rel: n.rel,
              title: n.title,
              ...(n.count === undefined ? {} : { properties: { numberOfItems: n.count } }),
            }),
          ),
        }
      : {}),
    ...(feed.books ? { publications: feed.books.map((b) => publication(b, site)) } : {}),
  };
  return JSON.stringify(doc);
}

/** One book as an OPDS 2.0 publication document (what a publication's `self` link leads to). */
export function renderJsonPublication(book: BookRow, site: OpdsSite): string {
  return JSON.stringify(publication(book, site));
}

function publication(book: BookRow, site: OpdsSite) {
  const feedLink = (path: string) => [{ href: site.feed('json', path), type: OpdsMediaType.feed2 }];
  const language = languageTag(book);
  const cover = site.cover(book);
  const images: Link[] = cover ? [cover] : [];
  // OPDS 2 requires an image, one of them JPEG, PNG or GIF
  if (!images.some((i) => /^image\/(jpeg|png|gif)$/.test(i.type))) images.push(site.noCover);
  return {
    metadata: {
      '@type': 'http://schema.org/Book',
      identifier: bookUrn(book),
      title: book.title || book.file_name,
      ...(book.author
        ? {
            author: [
              { name: book.author, links: feedLink(`/author?name=${encodeURIComponent(book.author)}`) },
            ],
          }
        : {}),
      ...(book.publisher
        ? {
            publisher: [
              {
                name: book.publisher,
                links: feedLink(`/publisher?name=${encodeURIComponent(book.publisher)}`),
              },
            ],
          }
        : {}),
      ...(language ? { language } : {}),
      modified: isoTime(Number(book.updated_at)),
      ...(book.description ? { description: book.description } : {}),
      subject: [
        {
          name: book.category_name,
          code: String(book.category_id),
          scheme: 'urn:readlib:category',
          links: feedLink(`/category?id=${book.category_id}`),
        },
      ],
    },
    links: [
      { rel: 'self', ...site.publication('json', book) },
      { rel: 'http://opds-spec.org/acquisition/open-access', ...site.acquisition(book) },
    ],
    images,
  };
}
