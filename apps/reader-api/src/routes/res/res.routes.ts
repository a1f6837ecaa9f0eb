import { realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import type { RouteOptions } from '../route-options.js';

const YEAR_S = 365 * 24 * 60 * 60;

/**
 * A store path is served only when it cannot leave the store: no dot segments, backslashes, NUL, or
 * leftover percent-encoding (a double-encoded `..` stays visible as `%2e`). Stored names never need them.
 */
export function isSafeStorePath(pathname: string): boolean {
  if (/[\\\0%]/.test(pathname)) return false;
  return pathname.split('/').every((seg) => seg !== '..' && seg !== '.');
}

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
 * The file store, read-only under /res/ (decisions.md §1): ranges and ETags from @fastify/static,
 * immutable caching (stored names change when content does), and no script may run from a book page.
 */
export const resRoutes: FastifyPluginAsync<RouteOptions> = async (app, { config }) => {
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
