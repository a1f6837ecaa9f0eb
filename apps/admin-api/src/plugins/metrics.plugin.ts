import fp from 'fastify-plugin';
import { Counter } from 'prom-client';

// The HTTP status carries the class of refusal (decisions.md §2): a bounded set of reasons.
const REASONS: Record<number, string> = {
  400: 'invalid',
  401: 'unauthorized',
  409: 'conflict',
  413: 'too_large',
  415: 'not_epub',
  422: 'unsafe_archive',
  429: 'rate_limited',
};
const reasonOf = (status: number) => (status >= 500 ? 'internal' : (REASONS[status] ?? `http_${status}`));

/**
 * Catalogue counters on the app's /metrics: uploads accepted or refused (by reason), books created and
 * deleted. Counted from the answered status of the routes, so the handlers stay free of metrics code.
 */
export const adminMetricsPlugin = fp(
  async (app) => {
    const registers = [app.metrics];
    const uploads = new Counter({
      name: 'readlib_uploads_total',
      help: 'EPUB uploads by result (accepted, refused) and refusal reason',
      labelNames: ['result', 'reason'] as const,
      registers,
    });
    const created = new Counter({
      name: 'readlib_books_created_total',
      help: 'Books entered into the catalogue by POST /book/create',
      registers,
    });
    const deleted = new Counter({
      name: 'readlib_books_deleted_total',
      help: 'Books removed by /book/delete',
      registers,
    });
    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url;
      const ok = reply.statusCode === 200;
      if (route === '/book/upload') {
        if (ok) uploads.inc({ result: 'accepted', reason: '' });
        else uploads.inc({ result: 'refused', reason: reasonOf(reply.statusCode) });
      } else if (ok && route === '/book/create') created.inc();
      else if (ok && route === '/book/delete') deleted.inc();
    });
  },
  { name: 'admin-metrics' },
);
