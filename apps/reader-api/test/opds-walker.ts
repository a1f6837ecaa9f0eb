import { OpdsMediaType } from '@readlib/contracts';
import { expect } from 'vitest';
import {
  opds2FeedErrors,
  opds2PublicationErrors,
  readOpds1Entry,
  readOpds1Feed,
  readOpds2Feed,
  readOpds2Publication,
} from './opds-clients.js';

/**
 * What an e-reader app does with a catalogue, over real HTTP, by the links the documents give it and
 * nothing else: read a page with the client library, follow `next`, open navigation entries, download
 * books, fill in the search template. Every document read is checked on the way (well-formed XML and
 * Readium's reading for OPDS 1; the OPDS 2 schema and Readium's reading for OPDS 2).
 */
export interface FeedPage {
  /** the media type the server answered */
  type: string;
  self: string;
  next?: string;
  navigation: Array<{ title: string; href: string }>;
  books: BookEntry[];
  /** OPDS 1: the OpenSearch description; OPDS 2: the templated search link */
  search?: string;
}

export interface BookEntry {
  id: string;
  title: string;
  acquisition: { href: string; type: string };
  images: string[];
  /** the entry document (OPDS 1) or publication document (OPDS 2) */
  publication: string;
}

export interface AppDialect {
  name: 'OPDS 1.2' | 'OPDS 2.0';
  /** the address a reader types into the app */
  root: string;
  read(url: string): Promise<FeedPage>;
  /** the identifier the publication document gives */
  readPublication(url: string): Promise<string>;
  /** the URL of a search for `terms`, from the root page's search link */
  searchUrl(root: FeedPage, terms: string): Promise<string>;
}

async function get(url: string): Promise<Response> {
  const res = await fetch(url);
  expect(res.status, `GET ${url}`).toBe(200);
  return res;
}

const ACQUISITION = 'http://opds-spec.org/acquisition/open-access';

export function opds1(base: string): AppDialect {
  return {
    name: 'OPDS 1.2',
    root: `${base}/opds`,
    async read(url) {
      const res = await get(url);
      const type = res.headers.get('content-type') ?? '';
      const feed = readOpds1Feed(await res.text());
      const linkOf = (rel: string, type?: string) =>
        feed.Links.find((l) => l.Rel === rel && (type === undefined || l.Type === type))?.Href;
      const navigation = [];
      const books: BookEntry[] = [];
      for (const e of feed.Entries ?? []) {
        const acquisition = e.Links.find((l) => l.Rel === ACQUISITION);
        if (!acquisition) {
          const to = e.Links.find((l) => l.Type.startsWith('application/atom+xml;profile=opds-catalog'))!;
          navigation.push({ title: e.Title, href: to.Href });
          continue;
        }
        books.push({
          id: e.Id,
          title: e.Title,
          acquisition: { href: acquisition.Href, type: acquisition.Type },
          images: e.Links.filter((l) => l.Rel.startsWith('http://opds-spec.org/image')).map((l) => l.Href),
          publication: e.Links.find((l) => l.Rel === 'alternate' && l.Type === OpdsMediaType.entry)!.Href,
        });
      }
      return {
        type,
        self: linkOf('self')!,
        next: linkOf('next'),
        navigation,
        books,
        search: linkOf('search', OpdsMediaType.openSearch),
      };
    },
    async readPublication(url) {
      const res = await get(url);
      expect(res.headers.get('content-type')).toBe(OpdsMediaType.entry);
      return readOpds1Entry(await res.text()).Id;
    },
    async searchUrl(root, terms) {
      const res = await get(root.search!);
      expect(res.headers.get('content-type')).toBe(OpdsMediaType.openSearch);
      const description = await res.text();
      const template =
        /<Url[^>]*type="application\/atom\+xml;profile=opds-catalog;kind=acquisition"[^>]*template="([^"]+)"/.exec(
          description,
        )?.[1];
      expect(template, description).toBeDefined();
      return template!.replaceAll('&amp;', '&').replace('{searchTerms}', encodeURIComponent(terms));
    },
  };
}

export function opds2(base: string): AppDialect {
  return {
    name: 'OPDS 2.0',
    root: `${base}/opds/v2`,
    async read(url) {
      const res = await get(url);
      const type = res.headers.get('content-type') ?? '';
      expect(type, url).toBe(OpdsMediaType.feed2);
      const json = await res.json();
      expect(opds2FeedErrors(json), url).toEqual([]);
      const feed = readOpds2Feed(json);
      const linkOf = (rel: string) => feed.Links.find((l) => l.HasRel(rel));
      return {
        type,
        self: linkOf('self')!.Href,
        next: linkOf('next')?.Href,
        navigation: (feed.Navigation ?? []).map((l) => ({ title: l.Title, href: l.Href })),
        books: (feed.Publications ?? []).map((p) => {
          const acquisition = p.Links.find((l) => l.HasRel(ACQUISITION))!;
          return {
            id: p.Metadata.Identifier,
            title: String(p.Metadata.Title),
            acquisition: { href: acquisition.Href, type: acquisition.TypeLink },
            images: p.Images.map((i) => i.Href),
            publication: p.Links.find((l) => l.HasRel('self'))!.Href,
          };
        }),
        search: linkOf('search')?.Href,
      };
    },
    async readPublication(url) {
      const res = await get(url);
      expect(res.headers.get('content-type')).toBe(OpdsMediaType.publication2);
      const json = await res.json();
      expect(opds2PublicationErrors(json), url).toEqual([]);
      return readOpds2Publication(json).Metadata.Identifier;
    },
    async searchUrl(root, terms) {
      // RFC 6570 form-style query expansion, the only form the template uses
      return root.search!.replace('{?query}', `?query=${encodeURIComponent(terms)}`);
    },
  };
}

/** Every page of a feed, from its first by `next`; each page's `self` is the URL it was read from. */
export async function walk(app: AppDialect, url: string): Promise<{ pages: FeedPage[]; books: BookEntry[] }> {
  const pages: FeedPage[] = [];
  for (let next: string | undefined = url; next !== undefined; ) {
    expect(pages.length, `${url}: too many pages`).toBeLessThan(100);
    const page = await app.read(next);
    expect(page.self).toBe(next);
    pages.push(page);
    next = page.next;
  }
  return { pages, books: pages.flatMap((p) => p.books) };
}
