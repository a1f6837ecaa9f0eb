import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

export interface ConsolePluginOptions {
  /** the console's build (`apps/console/dist`: index.html and assets/) */
  dir: string;
  /** origin of the reader service, whose `/res/` serves the covers the console shows */
  publicBaseUrl: string;
}

/**
 * `apps/console/dist` of this repository, found from this module's package (the nearest package.json
 * above it), so the same path comes out whether this file runs from src/ or from a compiled dist/.
 */
export function defaultConsoleDir(moduleUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, '..', 'console', 'dist');
}

/**
 * What the console may load: its own scripts, styles and API (same origin), images from itself and
 * the reader service's `/res/` (covers), nothing inline, no framing. Element Plus and ECharts set
 * styles through the CSSOM, which `style-src` does not govern.
 */
export function consoleCsp(publicBaseUrl: string): string {
  const covers = new URL(publicBaseUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${covers}`,
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><h1>The operator console has not been built</h1>
<p>Build it in the repository with <code>pnpm --filter @readlib/console build</code> (or <code>pnpm build</code>),
then reload this page. <code>pnpm start</code> builds it when it is missing.</p></body></html>
`;

/** A hashed file name never changes content: cached for a year; everything else is revalidated. */
const YEAR = { maxAge: '365d', immutable: true } as const;

/**
 * The operator console at `/console/`: hashed assets cached for good, `index.html` never
 * cached (a new build is seen at the next load), every other path inside it answered with index.html
 * for the console's own router, all under a strict Content-Security-Policy. A file the build
 * compressed (its `.br` and `.gz` beside it) is sent compressed to a browser that accepts it, with
 * `Vary: Accept-Encoding`; the service compresses nothing per request. A console that was not built
 * answers 503 with a page saying how to build it.
 */
export const consolePlugin = fp(
  async (app, opts: ConsolePluginOptions) => {
    const index = join(opts.dir, 'index.html');
    const csp = consoleCsp(opts.publicBaseUrl);
    await app.register(fastifyStatic, {
      root: opts.dir,
      serve: false,
      dotfiles: 'ignore',
      index: false,
      preCompressed: true,
      suppressWarning: true,
    });
    app.addHook('onReady', async () => {
      if (!existsSync(index)) {
        app.log.warn(
          { consoleDir: opts.dir },
          'the operator console is not built: /console/ answers 503 until `pnpm --filter @readlib/console build` writes it',
        );
      }
    });

    app.get('/console', { schema: { hide: true } }, (req, reply) => {
      const query = req.url.indexOf('?');
      return reply.redirect(`/console/${query >= 0 ? req.url.slice(query) : ''}`, 301);
    });

    app.get<{ Params: { '*': string } }>('/console/*', { schema: { hide: true } }, async (req, reply) => {
      const path = req.params['*'];
      reply.header('content-security-policy', csp);
      if (path.startsWith('assets/')) return reply.sendFile(path, YEAR);
      // a file of the build's top folder (favicon.svg); deeper paths are the console's own pages
      if (!path.includes('/') && path.includes('.') && path !== 'index.html') {
        return reply.sendFile(path, { maxAge: '1h' });
      }
      const built = await stat(index).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!built) return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT);
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', { cacheControl: false });
    });
  },
  { name: 'admin-console' },
);
