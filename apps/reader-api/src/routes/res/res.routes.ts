import { realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { findBook, type ReaderContext, syncCatalog } from '@readlib/catalog';
import { AppError } from '@readlib/contracts';
import { isSafeStorePath } from '@readlib/epub';
import { failure } from '@readlib/http';
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import mimeDb from 'mime-db';
import vary from 'vary';
import type { RouteOptions } from '../route-options.js';
import { downloadDisposition } from './download-name.js';

const YEAR_S = 365 * 24 * 60 * 60;

/** A type mime-db marks compressible, as @fastify/compress decides what it compresses. */
function compressible(contentType: unknown): boolean {
  if (typeof contentType !== 'string') return false;
  return mimeDb[contentType.split(';', 1)[0]!.trim().toLowerCase()]?.compressible === true;
}

/**
 * A book's pages come from whoever made the EPUB and are served from the reader's own origin: no
 * script runs in them, no form in them posts anywhere (a page asking for a password would otherwise
 * send it from the service's address), and the sandbox stops what needs no script to leave the page
 * (a `<meta http-equiv="refresh">` to another site). Its origin stays the reader's, for readers that
 * show a page in a frame of their own, and a link may still open a new tab.
 */
export const BOOK_PAGE_CSP =
  "script-src 'none'; form-action 'none'; sandbox allow-same-origin allow-popups allow-popups-to-escape-sandbox";

/**
 * The path, with every symlink resolved, is still inside the store (a symlink inside the store
 * pointing outside is not served; tests/reliability tries it). Missing files pass, for a plain 404.
 */
export function staysInStore(root: string, pathname: string): boolean {
  let real: string;
  try {
    real = realpathSync.native(join(root, pathname));
  } catch (err) {
    // a symlink loop (ELOOP) was a 500; anything but a missing file is refused as not there
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
  const base = realpathSync.native(root);
  if (real === base) return true;
  if (!real.startsWith(base + sep)) return false;
  // a FIFO or a device would hold the request open for ever; folders go on to a 404
  const kind = statSync(real, { throwIfNoEntry: false });
  return kind === undefined || kind.isFile() || kind.isDirectory();
}

/**
 * A Range header a server must ignore (RFC 9110 §14.2): not `bytes=` ranges, or a range whose end is
 * before its start. @fastify/send answers these 416, as if they were past the end of the file.
 */
export function isValidByteRange(header: string): boolean {
  const m = /^bytes=(.+)$/i.exec(header.trim());
  return (
    m !== null &&
    m[1]!.split(',').every((spec) => {
      const r = /^\s*(?:(\d+)-(\d*)|-(\d+))\s*$/.exec(spec);
      return r !== null && (r[2] === undefined || r[2] === '' || Number(r[1]) <= Number(r[2]));
    })
  );
}

/** An entity tag no file here has (theirs are all weak): what a failed If-Match is made to compare with. */
const NO_STRONG_ETAG = '"strong-comparison-never-matches"';

/**
 * The file store, read-only under /res/ (decisions.md §1): ranges and ETags from @fastify/static,
 * immutable caching (stored names change when content does), and no script may run from a book page.
 */
export const resRoutes: FastifyPluginAsync<RouteOptions> = async (app, { config, ctx }) => {
  // a stored EPUB (`epub/<fileName>.epub`) is saved under its book's title; set with the file's headers
  // keyed by the raw response, which is what @fastify/static hands setHeaders
  const dispositions = new WeakMap<object, string>();
  app.addHook('preHandler', (req, reply, done) => {
    const path = (req.params as { '*'?: string })['*'] ?? '';
    const download = STORED_EPUB.exec(path);
    const fileName = (download ?? UNZIPPED.exec(path))?.[1];
    if (fileName === undefined) return done();
    bookTitle(ctx, fileName).then((title) => {
      // an upload no operator has created yet (or the files of no book): not the public's to read
      if (title === undefined) return reply.callNotFound();
      if (download) dispositions.set(reply.raw, downloadDisposition(title, fileName));
      done();
    }, done);
  });
  // callback style, as the base app's hooks: only a long suffix range waits for a stat
  app.addHook('onRequest', (req, reply, done) => {
    // on every answer under /res/, errors included (setHeaders below reaches only the file's own)
    reply.header('content-security-policy', BOOK_PAGE_CSP);
    // If-Match compares strongly (RFC 9110 §13.1.1) and every ETag here is weak, so only `*` can match;
    // @fastify/send compares weakly and would let a write-guarding client go on against a changed file
    const ifMatch = req.headers['if-match'];
    if (ifMatch !== undefined && ifMatch.trim() !== '*') req.headers['if-match'] = NO_STRONG_ETAG;
    const range = req.headers.range;
    if (range === undefined) return done();
    // a weak validator never matches in If-Range (RFC 9110 §13.1.5), and every ETag here is weak:
    // the whole file, not a slice of what may be another version
    if (!isValidByteRange(range) || /^\s*W\//.test(String(req.headers['if-range'] ?? ''))) {
      delete req.headers.range;
      return done();
    }
    const suffix = /^bytes=\s*-(\d+)\s*$/i.exec(range);
    if (!suffix || Number(suffix[1]) === 0) return done();
    wholeFileForLongSuffix(req, config.storageDir, Number(suffix[1])).then(() => done(), done);
  });
  // what @fastify/send refuses, in this API's terms; everything else goes to the root handler
  app.setErrorHandler((err: FastifyError & { headers?: Record<string, string> }, _req, reply) => {
    // a folder (`/res/img/`): no listing is served, so there is no such file
    if (err.statusCode === 403) return reply.callNotFound();
    if (err.statusCode === 412) {
      // If-Match / If-Unmodified-Since failed (RFC 9110 §13.1.1): 412, which @fastify/send left a 400
      return reply.code(412).send(failure('reader', 'failure', 'precondition failed').body);
    }
    if (err.statusCode !== 416) throw err;
    const { body } = failure('reader', 'failure', 'range not satisfiable');
    const size = err.headers?.['Content-Range'];
    if (size) reply.header('content-range', size);
    return reply.code(416).send(body);
  });
  // a book's pages, styles, package and SVG pictures (the types mime-db marks compressible) as a reader
  // fetches them from a service with no proxy in front (nginx compresses the store itself:
  // deploy/nginx); never a range, which @fastify/compress leaves alone, nor an EPUB or a picture. Its
  // default threshold (1 KiB) applies to error envelopes only: a file is compressed whatever its size
  await app.register(fastifyCompress, { global: true, encodings: ['br', 'gzip'] });
  // every answer of a type it compresses varies by Accept-Encoding, also when this one went as it is
  // (no Accept-Encoding, a range): it says so only on what it compressed, and a cache in front would keep
  // the plain copy for a year (immutable) and serve it to clients that take brotli
  app.addHook('onSend', (_req, reply, payload, done) => {
    // once, whatever the case it was given in (vary.append, as the OPDS answers add it)
    if (compressible(reply.getHeader('content-type')))
      reply.header('vary', vary.append(String(reply.getHeader('vary') ?? ''), 'accept-encoding'));
    done(null, payload);
  });
  await app.register(fastifyStatic, {
    root: config.storageDir,
    prefix: '/res/',
    decorateReply: false,
    index: false,
    list: false,
    redirect: false,
    dotfiles: 'ignore',
    acceptRanges: true,
    etag: true,
    lastModified: true,
    cacheControl: false,
    allowedPath: (pathname, root) => isSafeStorePath(pathname) && staysInStore(root, pathname),
    setHeaders: (res) => {
      res.setHeader('cache-control', `public, max-age=${YEAR_S}, immutable`);
      res.setHeader('content-security-policy', BOOK_PAGE_CSP);
      const disposition = dispositions.get(res);
      if (disposition !== undefined) res.setHeader('content-disposition', disposition);
    },
  });
};

/**
 * A stored EPUB (`epub/<fileName>.epub`) and a book's unpacked files (`unzip/<fileName>/...`), by the
 * book they belong to: those are served only while a book of that name is in the catalogue. An upload
 * is stored before an operator creates its book (decisions.md §4), and its pages come from whoever
 * uploaded it. Covers (`img/`) are served for every name: the console shows an upload's cover before it
 * is created, and a stored cover is a picture by its bytes.
 */
const STORED_EPUB = /^epub\/([^/]+)\.epub$/;
const UNZIPPED = /^unzip\/([^/]+)\//;

/** The title of the book stored under this name; undefined for a file no book names. */
async function bookTitle(ctx: ReaderContext, fileName: string): Promise<string | undefined> {
  try {
    return (await findBook(await syncCatalog(ctx), fileName)).title;
  } catch (err) {
    if (err instanceof AppError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

/**
 * `bytes=-N` asks for the last N bytes, so a file shorter than N is sent whole as 206 (RFC 9110
 * §14.1.3); @fastify/send answered it 416, and a reader fetching the tail of a small EPUB failed.
 */
async function wholeFileForLongSuffix(req: FastifyRequest, root: string, n: number): Promise<void> {
  const rel = (req.params as { '*'?: string })['*'];
  if (rel === undefined || !isSafeStorePath(rel)) return;
  const size = (await stat(join(root, rel)).catch(() => undefined))?.size;
  if (size !== undefined && size > 0 && n >= size) req.headers.range = 'bytes=0-';
}
