import type { Derived, Keep } from '@readlib/cache';
import {
  type HomeRows,
  type PublicUrls,
  type ReaderKeeps,
  type ReaderVersion,
  toBookSummary,
} from '@readlib/catalog';
import type { Banner, CategoryItem } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import type { FastifyReply } from 'fastify';
import { DATA_HEAD, keptBytes, sendJson } from '../route-options.js';

/** What a home page holds between its parts, in the order `bytes` writes them. */
const OPEN = Buffer.from(`${DATA_HEAD}{"hotSearch":`);
const SECTIONS = ['shelf', 'recommend', 'freeRead', 'hotBook'] as const;
const BEFORE = SECTIONS.map((name, i) => Buffer.from(`${i === 0 ? '' : ']'},"${name}":[`));
const COMMA = Buffer.from(',');
const CATEGORY = Buffer.from('],"category":');

/**
 * Serialises home pages from parts kept per object as UTF-8 bytes: a book row's summary, kept while
 * the catalogue memo hands out that row object (an edit replaces it, never changes it in place), the
 * top keyword, and the category list, kept while the cache hands out that list. A home page is mostly
 * the same books and the same category list for every reader; serialising ~8 KB with the route's schema
 * per request is a tenth of the request's CPU. Each part is the contract's shape built
 * by the mappers (toBookSummary, toCategoryItem), so JSON.stringify writes what the schema's serialiser
 * wrote (tested against it). The parts are copied into the page as bytes: joined as text, the page's
 * ~4 KB of books (titles and names mostly CJK) would be encoded to UTF-8 again on every request, and
 * Node would measure the text once more for its length.
 */
export class HomeAnswers {
  private readonly books: Derived<ReaderVersion, BookRow, Buffer>;
  /** the top keyword, tagged with its words and count: the same for seconds at a time */
  private readonly hot: Keep<ReaderVersion, '', Buffer>;
  private readonly lists: Derived<ReaderVersion, object, string>;
  /** per category list: `<list>,"banner":<banner>,"shelfCount":` as bytes, for the banner it was made with */
  private readonly tails: Derived<ReaderVersion, object, { banner: Banner; bytes: Buffer }>;
  /** per category list: the whole envelope of GET /book/category/list/v2, as bytes */
  private readonly listAnswers: Derived<ReaderVersion, object, Buffer>;

  constructor(
    private readonly urls: PublicUrls,
    private readonly keeps: ReaderKeeps,
  ) {
    this.books = keeps.derived('book summaries, serialised', 'book rows');
    this.hot = keeps.keep({
      name: 'top keyword, serialised',
      key: '-; tagged with the keyword and its count',
      dependsOn: [],
      max: 1,
    });
    this.lists = keeps.derived('category list, serialised', 'category list');
    this.tails = keeps.derived('category list with the banner, serialised', 'category list');
    this.listAnswers = keeps.derived('category list envelope, serialised', 'category list');
  }

  send(reply: FastifyReply, home: HomeRows): FastifyReply {
    return sendJson(reply, this.bytes(home));
  }

  /** GET /book/category/list/v2: the list alone, the same text the home pages hold. */
  sendCategories(reply: FastifyReply, list: CategoryItem[]): FastifyReply {
    return sendJson(
      reply,
      this.listAnswers.of(list, () => keptBytes(`${DATA_HEAD}${this.kept(list)}}`)),
    );
  }

  /** The home envelope as text (what `send` sends as bytes). */
  json(home: HomeRows): string {
    return this.bytes(home).toString('utf8');
  }

  /** The home envelope as UTF-8 bytes, copied from the kept parts; only the shelf size is written here. */
  bytes(home: HomeRows): Buffer {
    const parts: Buffer[] = [OPEN, this.hotSearch(home.hotSearch)];
    for (let i = 0; i < SECTIONS.length; i++) {
      parts.push(BEFORE[i]!);
      const rows = home[SECTIONS[i]!];
      for (let j = 0; j < rows.length; j++) {
        if (j > 0) parts.push(COMMA);
        parts.push(this.summary(rows[j]!));
      }
    }
    parts.push(CATEGORY, this.tail(home.category, home.banner));
    const count = `${Math.trunc(home.shelfCount)}}}`;
    let length = count.length;
    for (const part of parts) length += part.length;
    const page = Buffer.allocUnsafe(length);
    let at = 0;
    for (const part of parts) {
      page.set(part, at);
      at += part.length;
    }
    page.write(count, at, 'latin1');
    return page;
  }

  private hotSearch({ num, keyword }: HomeRows['hotSearch']): Buffer {
    const tag = `${num}:${keyword}`;
    const kept = this.hot.get('', tag);
    if (kept !== undefined) return kept;
    const bytes = keptBytes(JSON.stringify({ num, keyword }));
    this.hot.set('', bytes, this.keeps.versions.seen, tag);
    return bytes;
  }

  private tail(list: object, banner: Banner): Buffer {
    const kept = this.tails.peek(list);
    if (kept !== undefined && kept.banner === banner) return kept.bytes;
    const b = banner;
    const json = JSON.stringify({ img: b.img, title: b.title, subTitle: b.subTitle, url: b.url });
    const bytes = keptBytes(`${this.kept(list)},"banner":${json},"shelfCount":`);
    this.tails.set(list, { banner, bytes });
    return bytes;
  }

  private summary(row: BookRow): Buffer {
    return this.books.of(row, (r) => keptBytes(JSON.stringify(toBookSummary(r, this.urls))));
  }

  private kept(list: object): string {
    return this.lists.of(list, (l) => JSON.stringify(l));
  }
}
