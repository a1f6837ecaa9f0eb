import { gunzipSync } from 'node:zlib';
import { MaxLength, OpdsMediaType, type RouteSpec, readerRoutes } from '@readlib/contracts';
import { updateBook } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GZIP_FROM_BYTES } from '../src/routes/opds/feed-answers.js';
import {
  dialects,
  type Harness,
  harness,
  register,
  seedBook,
  seedBooks,
  settledSearchLog,
  view,
} from './helpers.js';
import {
  assertWellFormed,
  opds2FeedErrors,
  opds2PublicationErrors,
  readOpds1Entry,
  readOpds1Feed,
  readOpds2Feed,
} from './opds-clients.js';

const FEEDS = [
  ['OPDS 1.2', '/opds'],
  ['OPDS 2.0', '/opds/v2'],
] as const;

// OPDS: what the feeds promise beyond browsing (the walk): validators, text, errors, logging
describe.each(dialects)('OPDS feeds on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

  describe.each(FEEDS)('%s validators', (_name, root) => {
    it('ETag and Last-Modified, 304 on If-None-Match and If-Modified-Since, new tags after a book write', async () => {
      await seedBook(t, { title: 'First' });
      const first = await get(`${root}/new`);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-cache');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/"[\w-]{16}\.\d+"$/);
      // built in this second: no date yet, a change later in the same second would share it
      expect(first.headers['last-modified']).toBeUndefined();

      const same = await get(`${root}/new`, { 'if-none-match': etag });
      expect(same.statusCode).toBe(304);
      expect(same.body).toBe('');
      expect(same.headers.etag).toBe(etag);
      expect((await get(`${root}/new`, { 'if-none-match': `"x", ${etag.slice(2)}` })).statusCode).toBe(304);
      expect((await get(`${root}/new`, { 'if-none-match': '"other"' })).statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: 'HEAD', url: `${root}/new`, headers: { 'if-none-match': etag } }))
          .statusCode,
      ).toBe(304);

      t.clock.now += 2_000;
      const dated = await get(`${root}/new`);
      const lastModified = dated.headers['last-modified'] as string;
      expect(new Date(lastModified).getTime()).toBe(Math.floor((t.clock.now - 2_000) / 1000) * 1000);
      expect((await get(`${root}/new`, { 'if-modified-since': lastModified })).statusCode).toBe(304);
      const later = new Date(t.clock.now).toUTCString();
      expect((await get(`${root}/new`, { 'if-modified-since': later })).statusCode).toBe(304);
      const earlier = new Date(t.clock.now - 10_000).toUTCString();
      expect((await get(`${root}/new`, { 'if-modified-since': earlier })).statusCode).toBe(200);
      // If-None-Match decides when both are sent (RFC 9110 §13.1.3)
      expect(
        (await get(`${root}/new`, { 'if-none-match': '"other"', 'if-modified-since': later })).statusCode,
      ).toBe(200);

      // a book written by another process moves the catalogue version: both validators fail
      await seedBook(t, { title: 'Second' });
      const changed = await get(`${root}/new`, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.body).toContain('Second');
      expect((await get(`${root}/new`, { 'if-modified-since': later })).statusCode).toBe(200);
    });

    it('the popular feed follows views: its tag moves with the ranking, and it claims no date', async () => {
      const [a, b] = [await seedBook(t, { title: 'A' }), await seedBook(t, { title: 'B' })];
      await register(t, 'reader');
      await view(t, a.file_name, 'reader');
      const before = await get(`${root}/popular`);
      t.clock.now += 10_000;
      expect(
        (await get(`${root}/popular`, { 'if-none-match': before.headers.etag as string })).statusCode,
      ).toBe(304);
      expect((await get(`${root}/popular`)).headers['last-modified']).toBeUndefined();
      await view(t, b.file_name, 'reader');
      await view(t, b.file_name, 'reader');
      t.clock.now += 10_000;
      const after = await get(`${root}/popular`, { 'if-none-match': before.headers.etag as string });
      expect(after.statusCode).toBe(200);
      expect(after.body.indexOf(b.file_name)).toBeLessThan(after.body.indexOf(a.file_name));
    });
  });

  describe.each(FEEDS)('%s compression', (_name, root) => {
    const gzip = { 'accept-encoding': 'gzip, deflate, br' };

    it('gzipped for an app that accepts it: the same bytes, type and tag, kept with the answer', async () => {
      await seedBooks(t, 20);
      const plain = await get(`${root}/new`);
      expect(plain.rawPayload.length).toBeGreaterThanOrEqual(GZIP_FROM_BYTES);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const zipped = await get(`${root}/new`, gzip);
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-type']).toBe(plain.headers['content-type']);
      expect(zipped.headers.etag).toBe(plain.headers.etag);
      expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect((await get(`${root}/new`, { 'accept-encoding': 'gzip' })).rawPayload).toEqual(zipped.rawPayload);
      const head = await t.app.inject({ method: 'HEAD', url: `${root}/new`, headers: gzip });
      expect(head.headers['content-encoding']).toBe('gzip');
      expect(head.headers['content-length']).toBe(zipped.headers['content-length']);
    });

    it('Vary: Accept-Encoding on every answer, 304s and plain ones included, beside CORS', async () => {
      await seedBooks(t, 20);
      const plain = await get(`${root}/new`, { origin: 'https://reader.example' });
      expect(plain.headers.vary).toMatch(/\bOrigin\b/);
      expect(plain.headers.vary).toMatch(/\bAccept-Encoding\b/);
      const revalidated = await get(`${root}/new`, {
        ...gzip,
        'if-none-match': plain.headers.etag as string,
      });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.headers['content-encoding']).toBeUndefined();
      expect(revalidated.headers.vary).toMatch(/\bAccept-Encoding\b/);
    });

    it('sent as they are when gzip is refused or not offered', async () => {
      await seedBooks(t, 20);
      const plain = await get(`${root}/new`);
      for (const accepted of ['identity', 'gzip;q=0', 'br', 'deflate']) {
        const res = await get(`${root}/new`, { 'accept-encoding': accepted });
        expect(res.headers['content-encoding'], accepted).toBeUndefined();
        expect(res.rawPayload, accepted).toEqual(plain.rawPayload);
      }
    });
  });

  it('an answer under the threshold (an empty OPDS 2 search) is sent as it is', async () => {
    const url = '/opds/v2/search?query=nothing-has-this';
    const plain = await get(url);
    expect(plain.rawPayload.length).toBeLessThan(GZIP_FROM_BYTES);
    const res = await get(url, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload).toEqual(plain.rawPayload);
    expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/);
  });

  it('hostile metadata: control characters dropped, markup escaped, every document well-formed', async () => {
    const book = await seedBook(t, { title: 'placeholder' });
    // U+FFFE is storable as UTF-8 but not allowed in XML; lone surrogates are not storable (xml-text.test)
    const title = 'Evil \u0001\u0008\u000B <b>&"\'</b>\uFFFE end';
    await updateBook(t.h.db, book.file_name, {
      title,
      author: 'Mal\u0002ice & <Co>',
      description: '</summary><script>alert(1)</script> \u001F',
      language: 'not a language!',
    });
    for (const url of [
      '/opds/new',
      '/opds/authors',
      `/opds/author?name=${encodeURIComponent('Mal\u0002ice & <Co>')}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      assertWellFormed(res.body);
    }
    const feed = readOpds1Feed((await get('/opds/new')).body);
    const entry = feed.Entries[0]!;
    expect(entry.Title).toBe('Evil  <b>&"\'</b> end');
    expect(entry.Authors[0]!.Name).toBe('Malice & <Co>');
    expect(entry.Summary).toBe('</summary><script>alert(1)</script> ');
    expect(entry.DcLanguage).toBeUndefined();
    const doc = (await get(`/opds/publication?fileName=${book.file_name}`)).body;
    expect(readOpds1Entry(doc).Title).toBe('Evil  <b>&"\'</b> end');

    const json = (await get('/opds/v2/new')).json();
    expect(opds2FeedErrors(json)).toEqual([]);
    expect(json.publications[0].metadata.title).toBe(title);
    expect(json.publications[0].metadata.language).toBeUndefined();
  });

  it('an author and a publisher of the longest length a book stores open their feeds from the lists', async () => {
    const [author, publisher] = ['A'.repeat(MaxLength.text), 'P'.repeat(MaxLength.text)];
    await seedBook(t, { title: 'Long names', author, publisher });
    const local = (href: string) => {
      const url = new URL(href);
      return `${url.pathname}${url.search}`;
    };
    for (const list of ['authors', 'publishers']) {
      const atom = readOpds1Feed((await get(`/opds/${list}`)).body);
      const json = readOpds2Feed((await get(`/opds/v2/${list}`)).json());
      const hrefs = [atom.Entries[0]!.Links[0]!.Href, json.Navigation[0]!.Href];
      for (const href of hrefs) {
        const res = await get(local(href));
        expect([href, res.statusCode]).toEqual([href, 200]);
        expect(res.body).toContain('Long names');
      }
    }
  });

  it('an entry document of a book without an author names the catalogue in atom:source', async () => {
    const anonymous = await seedBook(t, { title: 'Anonymous work', author: '' });
    const signed = await seedBook(t, { title: 'Signed work', author: 'Ada' });
    const doc = (await get(`/opds/publication?fileName=${anonymous.file_name}`)).body;
    assertWellFormed(doc);
    expect(doc).toMatch(
      /<source><author><name>Reading library<\/name><uri>[^<]+\/opds<\/uri><\/author><\/source>/,
    );
    expect(readOpds1Entry(doc).Authors ?? []).toEqual([]);
    const signedDoc = (await get(`/opds/publication?fileName=${signed.file_name}`)).body;
    expect(signedDoc).not.toContain('<source>');
    // in a feed, the feed's own author stands in
    expect((await get('/opds/new')).body).not.toContain('<source>');
  });

  it('the root says what each feed holds: the number of books, or what it lists', async () => {
    await seedBooks(t, 3);
    const root = readOpds1Feed((await get('/opds')).body);
    expect(root.Entries.map((e) => [e.Title, e.Content])).toEqual([
      ['New books', '3 books'],
      ['Popular books', 'The most read of the last 30 days'],
      ['Categories', 'Every category with books'],
      ['Authors', 'Most books first'],
      ['Publishers', 'Most books first'],
    ]);
    const root2 = readOpds2Feed((await get('/opds/v2')).json());
    expect(root2.Navigation.map((l) => [l.Title, l.Properties?.NumberOfItems])).toEqual([
      ['New books', 3],
      ['Popular books', undefined],
      ['Categories', undefined],
      ['Authors', undefined],
      ['Publishers', undefined],
    ]);
  });

  it('a catalogue address typed with a trailing slash is sent to the feed, its query kept', async () => {
    await seedBooks(t, 3);
    // the roots answer with a slash as they are
    for (const root of ['/opds/', '/opds/v2/']) expect((await get(root)).statusCode).toBe(200);
    for (const [typed, feed] of [
      ['/opds/new/?page=2', '/opds/new?page=2'],
      ['/opds/categories/', '/opds/categories'],
      ['/opds/v2/search/?query=a', '/opds/v2/search?query=a'],
    ]) {
      const moved = await get(typed!);
      expect([typed, moved.statusCode]).toEqual([typed, 308]);
      // a relative Location, which keeps a proxy's path: resolved against the address asked
      const base = 'http://reader.example/library';
      const location = String(moved.headers.location);
      expect(location).toMatch(/^\.\.\//);
      expect(new URL(location, `${base}${typed}`).href).toBe(`${base}${feed}`);
      expect((await get(feed!)).statusCode).toBe(200);
    }
  });

  it('CJK text is sent as UTF-8 in both dialects', async () => {
    await seedBook(t, { title: '红楼梦', author: '曹雪芹', language: 'zh-cn' });
    const atom = await get('/opds/new');
    expect(atom.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(atom.rawPayload.includes(Buffer.from('<title>红楼梦</title>', 'utf8'))).toBe(true);
    expect(readOpds1Feed(atom.body).Entries[0]!.DcLanguage).toBe('zh-CN');
    const json = await get('/opds/v2/new');
    expect(json.rawPayload.includes(Buffer.from('"title":"红楼梦"', 'utf8'))).toBe(true);
    expect(readOpds2Feed(json.json()).Publications[0]!.Metadata.Author[0]!.Name).toBe('曹雪芹');
  });

  it('links are absolute, from PUBLIC_BASE_URL', async () => {
    await t.close();
    t = await harness(dialect, { PUBLIC_BASE_URL: 'https://books.example.org/library' });
    const book = await seedBook(t, {
      title: 'Linked',
      cover_path: 'img/linked.jpg',
      file_path: 'epub/linked.epub',
    });
    const feed = readOpds1Feed((await get('/opds/new')).body);
    expect(feed.Links.find((l) => l.Rel === 'self')!.Href).toBe('https://books.example.org/library/opds/new');
    const hrefs = feed.Entries[0]!.Links.map((l) => l.Href);
    expect(hrefs).toContain('https://books.example.org/library/res/epub/linked.epub');
    expect(hrefs).toContain('https://books.example.org/library/res/img/linked.jpg');
    expect(hrefs).toContain(`https://books.example.org/library/opds/publication?fileName=${book.file_name}`);
    const search = (await get('/opds/opensearch')).body;
    expect(search).toContain('template="https://books.example.org/library/opds/search?query={searchTerms}"');
  });

  describe.each(FEEDS)('%s errors are the reader envelope', (_name, root) => {
    it.each([
      ['/category', 400, 2],
      ['/category?id=x', 400, 2],
      ['/category?id=424242', 404, 1],
      ['/new?page=0', 400, 2],
      ['/new?page=1.5', 400, 2],
      ['/author', 400, 2],
      ['/author?name=Nobody%20Known', 404, 1],
      ['/publisher?name=Nobody%20Known', 404, 1],
      ['/search', 400, 2],
      ['/search?query=%20%20', 400, 2],
      ['/publication?fileName=no_such_book', 404, 1],
      ['/nothing-here', 404, 1],
    ])('%s: %i', async (path, status, code) => {
      await seedBook(t);
      const res = await get(`${root}${path}`);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ error_code: code });
    });

    it('a page past the end is an empty page that leads back; a page past 2^53 books too', async () => {
      await seedBook(t);
      for (const page of [5, 9007199254740991]) {
        const res = await get(`${root}/new?page=${page}`);
        expect(res.statusCode).toBe(200);
        const [books, links] =
          root === '/opds'
            ? ((f) => [f.Entries ?? [], f.Links.map((l) => l.Rel)])(readOpds1Feed(res.body))
            : ((f) => [f.Publications ?? [], f.Links.map((l) => l.Rel[0])])(readOpds2Feed(res.json()));
        expect(books).toEqual([]);
        expect(links).toEqual(expect.arrayContaining(['first', 'previous']));
        expect(links).not.toContain('next');
      }
    });

    it('the root answers with a trailing slash too', async () => {
      expect((await get(`${root}/`)).body).toBe((await get(root)).body);
    });
  });

  it("an app's search is logged like a reader's: its first page, without an openId; HEAD and later pages not", async () => {
    for (let i = 0; i < 25; i++) await seedBook(t, { title: `Dune ${i}` });
    const logged = async () => (await settledSearchLog(t)).map((r) => [r.keyword, r.open_id]);
    expect((await get('/opds/search?query=Dune')).statusCode).toBe(200);
    expect((await get('/opds/v2/search?query=DUNE')).statusCode).toBe(200);
    expect((await get('/opds/search?query=Dune&page=2')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: '/opds/search?query=dune' })).statusCode).toBe(200);
    expect(await logged()).toEqual([
      ['dune', null],
      ['dune', null],
    ]);
  });

  it('books with nothing to download are left out; a download address stands in for a missing file', async () => {
    const fileless = await seedBook(t, { title: 'Fileless', file_path: '', url: '' });
    const remote = await seedBook(t, {
      title: 'Remote',
      file_path: '',
      url: 'https://cdn.example.org/remote.epub',
    });
    const feed = readOpds1Feed((await get('/opds/new')).body);
    expect(feed.Entries.map((e) => e.Title)).toEqual(['Remote']);
    const acquisition = feed.Entries[0]!.Links.find(
      (l) => l.Rel === 'http://opds-spec.org/acquisition/open-access',
    );
    expect(acquisition!.Href).toBe('https://cdn.example.org/remote.epub');
    expect((await get(`/opds/v2/publication?fileName=${fileless.file_name}`)).statusCode).toBe(404);
    expect((await get(`/opds/v2/publication?fileName=${remote.file_name}`)).statusCode).toBe(200);
  });

  it('OPDS 2: a book without a PNG, JPEG or GIF cover gets the placeholder, which is served', async () => {
    await seedBook(t, { title: 'Plain', cover_path: '' });
    await seedBook(t, { title: 'Webp', cover_path: 'img/webp-cover.webp' });
    const json = (await get('/opds/v2/new')).json();
    expect(opds2FeedErrors(json)).toEqual([]);
    const images = Object.fromEntries(
      json.publications.map(
        (p: { metadata: { title: string }; images: Array<{ href: string; type: string }> }) => [
          p.metadata.title,
          p.images.map((i) => i.type),
        ],
      ),
    );
    expect(images).toEqual({ Webp: ['image/webp', 'image/png'], Plain: ['image/png'] });
    const placeholder = await get('/opds/no-cover.png');
    expect(placeholder.statusCode).toBe(200);
    expect(placeholder.headers['content-type']).toBe('image/png');
    expect(placeholder.rawPayload.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]),
    );
    // OPDS 1 needs no image: none is made up
    const entry = readOpds1Feed((await get('/opds/new')).body).Entries.find((e) => e.Title === 'Plain')!;
    expect(entry.Links.filter((l) => l.Rel.startsWith('http://opds-spec.org/image'))).toEqual([]);
  });

  it('the schema used on OPDS 2 documents refuses what the specification forbids', async () => {
    const book = await seedBook(t, { title: 'Checked' });
    const publication = (await get(`/opds/v2/publication?fileName=${book.file_name}`)).json();
    expect(opds2PublicationErrors(publication)).toEqual([]);
    expect(opds2PublicationErrors({ ...publication, images: [] })).not.toEqual([]);
    expect(opds2PublicationErrors({ ...publication, links: publication.links.slice(0, 1) })).not.toEqual([]);
    expect(
      opds2PublicationErrors({
        ...publication,
        metadata: { ...publication.metadata, language: 'not a tag' },
      }),
    ).not.toEqual([]);
    const feed = (await get('/opds/v2')).json();
    expect(opds2FeedErrors(feed)).toEqual([]);
    expect(opds2FeedErrors({ ...feed, links: feed.links.slice(1) })).not.toEqual([]);
    expect(opds2FeedErrors({ metadata: feed.metadata, links: feed.links })).not.toEqual([]);
    expect(opds2FeedErrors({ ...feed, navigation: [{ href: 'http://x.test/' }] })).not.toEqual([]);
  });

  it('every OPDS route of the table answers its media type, and OpenAPI documents it', async () => {
    const book = await seedBook(t, { author: 'Ada', publisher: 'Press' });
    const query: Record<string, string> = {
      OpdsPageQuery: '?page=1',
      OpdsCategoryQuery: `?id=${book.category_id}`,
      OpdsNameQuery: '?name=Ada',
      OpdsSearchQuery: '?query=Sample',
      OpdsPublicationQuery: `?fileName=${book.file_name}`,
    };
    const doc = (await get('/openapi.json')).json();
    const routes = Object.values(readerRoutes as Record<string, RouteSpec>).filter(
      (r) => 'document' in r.reply,
    );
    expect(routes.length).toBe(23);
    for (const r of routes) {
      const [type] = (r.reply as { document: string[] }).document;
      const qs = r.url.endsWith('/publisher')
        ? '?name=Press'
        : r.querystring
          ? query[r.querystring as string]
          : '';
      const res = await get(`${r.url}${qs}`);
      expect([r.url, res.statusCode, res.headers['content-type']]).toEqual([r.url, 200, type]);
      expect(Object.keys(doc.paths[r.url].get.responses['200'].content), r.url).toEqual([type]);
    }
    expect(OpdsMediaType.navigation).toBe('application/atom+xml;profile=opds-catalog;kind=navigation');
  });
});
