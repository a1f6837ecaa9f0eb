import { type HomeRows, type PublicUrls, toBookSummary } from '@readlib/catalog';
import type { Banner, CategoryItem } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import type { FastifyReply } from 'fastify';
import { keptBytes, ok, sendJson } from '../route-options.js';

/** The envelope up to its data: `{"error_code":0,"msg":"success","data":` */
const HEAD = JSON.stringify(ok(0)).slice(0, -2);
/** What a home page holds between its parts, in the order `bytes` writes them. */
const OPEN = Buffer.from(`${HEAD}{"hotSearch":`);
const SECTIONS = ['shelf', 'recommend', 'freeRead', 'hotBook'] as const;
const BEFORE = SECTIONS.map((name, i) => Buffer.from(`${i === 0 ? '' : ']'},"${name}":[`));
const COMMA = Buffer.from(',');
const CATEGORY = Buffer.from('],"category":');

/**
 * Serialises home pages from parts kept per object as UTF-8 bytes: a book row's summary, kept while
 * the catalogue memo hands out that row object (an edit replaces it, never changes it in place), the
 * top keyword, and the category list, kept while the cache hands out that list. A home page is mostly
 * the same books and the same category list for every reader; serialising ~8 KB with the route's schema
 * per request took ~30 µs of a ~290 µs request in a CPU profile. Each part is the contract's shape built
 * by the mappers (toBookSummary, toCategoryItem), so JSON.stringify writes what the schema's serialiser
 * wrote (tested against it). The parts are copied into the page as bytes: joined as text, the page's
 * ~4 KB of books (titles and names mostly CJK) were encoded to UTF-8 again on every request (~4 µs,
 * besides ~3 µs of joining), and Node measured the text once more for its length.
 */
export class HomeAnswers {
  private readonly books = new WeakMap<BookRow, Buffer>();
  /** the top keyword last sent: a new object on every page, the same words for seconds at a time */
  private hot: { num: number; keyword: string; bytes: Buffer } | undefined;
  private readonly lists = new WeakMap<object, string>();
  /** per category list: `<list>,"banner":<banner>,"shelfCount":` as bytes, for the banner it was made with */
  private readonly tails = new WeakMap<object, { banner: Banner; bytes: Buffer }>();
  /** per category list: the whole envelope of GET /book/category/list/v2, as bytes */
  private readonly listAnswers = new WeakMap<object, Buffer>();

  constructor(private readonly urls: PublicUrls) {}

  send(reply: FastifyReply, home: HomeRows): FastifyReply {
    return sendJson(reply, this.bytes(home));
  }

  /** GET /book/category/list/v2: the list alone, the same text the home pages hold. */
  sendCategories(reply: FastifyReply, list: CategoryItem[]): FastifyReply {
    let bytes = this.listAnswers.get(list);
    if (bytes === undefined) {
      bytes = keptBytes(`${HEAD}${this.kept(list)}}`);
      this.listAnswers.set(list, bytes);
    }
    return sendJson(reply, bytes);
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
    const kept = this.hot;
    if (kept !== undefined && kept.num === num && kept.keyword === keyword) return kept.bytes;
    const bytes = keptBytes(JSON.stringify({ num, keyword }));
    this.hot = { num, keyword, bytes };
    return bytes;
  }

  private tail(list: object, banner: Banner): Buffer {
    const kept = this.tails.get(list);
    if (kept !== undefined && kept.banner === banner) return kept.bytes;
    const b = banner;
    const json = JSON.stringify({ img: b.img, title: b.title, subTitle: b.subTitle, url: b.url });
    const bytes = keptBytes(`${this.kept(list)},"banner":${json},"shelfCount":`);
    this.tails.set(list, { banner, bytes });
    return bytes;
  }

  private summary(row: BookRow): Buffer {
    let bytes = this.books.get(row);
    if (bytes === undefined) {
      bytes = keptBytes(JSON.stringify(toBookSummary(row, this.urls)));
      this.books.set(row, bytes);
    }
    return bytes;
  }

  private kept(list: object): string {
    let json = this.lists.get(list);
    if (json === undefined) {
      json = JSON.stringify(list);
      this.lists.set(list, json);
    }
    return json;
  }
}
