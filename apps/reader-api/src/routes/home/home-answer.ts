import { type HomeRows, type PublicUrls, toBookSummary } from '@readlib/catalog';
import type { Banner, CategoryItem } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import type { FastifyReply } from 'fastify';
import { ok, sendJson } from '../route-options.js';

/** The envelope up to its data: `{"error_code":0,"msg":"success","data":` */
const HEAD = JSON.stringify(ok(0)).slice(0, -2);

/**
 * Serialises home pages from parts kept per object: a book row's summary, kept while the catalogue memo
 * hands out that row object (an edit replaces it, never changes it in place), and the category list,
 * kept while the cache hands out that list. A home page is mostly the same books and the same category
 * list for every reader; serialising ~8 KB with the route's schema per request took ~30 µs of a ~290 µs
 * request in a CPU profile, besides the garbage it left. Each part is the contract's shape built by the
 * mappers (toBookSummary, toCategoryItem), so JSON.stringify writes what the schema's serialiser wrote
 * (tested against it). The part every reader shares, from the category list to the banner (about half
 * of a page), is kept as UTF-8 bytes: sent as text, Node measured, copied and encoded all 8 KB per page.
 */
export class HomeAnswers {
  private readonly books = new WeakMap<BookRow, string>();
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
      bytes = Buffer.from(`${HEAD}${this.kept(list)}}`);
      this.listAnswers.set(list, bytes);
    }
    return sendJson(reply, bytes);
  }

  /** The home envelope as text (what `send` sends as bytes). */
  json(home: HomeRows): string {
    return this.bytes(home).toString('utf8');
  }

  /** The home envelope as UTF-8 bytes: this page's own parts encoded, the shared part as kept. */
  bytes(home: HomeRows): Buffer {
    const { hotSearch: hot } = home;
    const head = [
      `${HEAD}{"hotSearch":${JSON.stringify({ num: hot.num, keyword: hot.keyword })}`,
      `"shelf":${this.summaries(home.shelf)}`,
      `"recommend":${this.summaries(home.recommend)}`,
      `"freeRead":${this.summaries(home.freeRead)}`,
      `"hotBook":${this.summaries(home.hotBook)}`,
      '"category":',
    ].join(',');
    return Buffer.concat([
      Buffer.from(head),
      this.tail(home.category, home.banner),
      Buffer.from(`${Math.trunc(home.shelfCount)}}}`),
    ]);
  }

  private tail(list: object, banner: Banner): Buffer {
    const kept = this.tails.get(list);
    if (kept !== undefined && kept.banner === banner) return kept.bytes;
    const b = banner;
    const json = JSON.stringify({ img: b.img, title: b.title, subTitle: b.subTitle, url: b.url });
    const bytes = Buffer.from(`${this.kept(list)},"banner":${json},"shelfCount":`);
    this.tails.set(list, { banner, bytes });
    return bytes;
  }

  private summaries(rows: BookRow[]): string {
    return `[${rows.map((r) => this.summary(r)).join(',')}]`;
  }

  private summary(row: BookRow): string {
    let json = this.books.get(row);
    if (json === undefined) {
      json = JSON.stringify(toBookSummary(row, this.urls));
      this.books.set(row, json);
    }
    return json;
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
