import { realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { isSafeStorePath } from '@readlib/epub';
import { failure } from '@readlib/http';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../route-options.js';

const YEAR_S = 365 * 24 * 60 * 60;

/**
 * The path, with every symlink resolved, is still inside the store (found by tests/reliability: a
 * symlink inside the store pointing outside was served). Missing files pass, for a plain 404.
 */
export function staysInStore(root: string, pathname: string): boolean {
  let real: string;
  try {
    real = realpathSync.native(join(root, pathname));
  } catch {
    return true;
  }
  const base = realpathSync.native(root);
  return real === base || real.startsWith(base + sep);
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

/**
 * The file store, read-only under /res/ (decisions.md §1): ranges and ETags from @fastify/static,
 * immutable caching (stored names change when content does), and no script may run from a book page.
 */
export const resRoutes: FastifyPluginAsync<RouteOptions> = async (app, { config }) => {
  app.addHook('onRequest', (req, _reply, done) => {
    const range = req.headers.range;
    if (range !== undefined && !isValidByteRange(range)) delete req.headers.range;
    done();
  });
  // what @fastify/send refuses, in this API's terms; everything else goes to the root handler
  app.setErrorHandler((err: FastifyError & { headers?: Record<string, string> }, _req, reply) => {
    // a folder (`/res/img/`): no listing is served, so there is no such file
    if (err.statusCode === 403) return reply.callNotFound();
    if (err.statusCode !== 416) throw err;
    const { body } = failure('reader', 'failure', 'range not satisfiable');
    const size = err.headers?.['Content-Range'];
    if (size) reply.header('content-range', size);
    return reply.code(416).send(body);
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
      res.setHeader('content-security-policy', "script-src 'none'");
    },
  });
};
