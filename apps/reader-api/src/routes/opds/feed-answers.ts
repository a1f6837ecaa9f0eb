import { createHash } from 'node:crypto';
import type { OpdsPlan, ReaderContext } from '@readlib/catalog';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keptBytes } from '../route-options.js';

/** An OPDS answer as sent: UTF-8 bytes, kept per catalogue version, and when they were made. */
interface FeedAnswer {
  body: Buffer;
  builtAt: number;
}

/**
 * Part of every ETag: moved when the rendering changes, so an app's copy from an older build of the
 * service is sent again rather than confirmed.
 */
const RENDERING = 1;

/**
 * Sends OPDS answers the way search-list pages are sent: built once per catalogue version and key
 * (in the catalogue memo's answers) and kept as bytes. Validators cost almost nothing:
 *
 * - ETag: the catalogue version and a digest of the answer's key (which holds the popular ranking's
 *   books where the answer depends on it). The version is read before anything is built, and a kept
 *   answer is one built within that version, so a tag never names content older than its version, and
 *   every book write (any process) changes the tags. A matching If-None-Match is a 304 before anything
 *   is read or built.
 * - Last-Modified: when this process built the answer, on answers that depend on the catalogue alone.
 *   HTTP dates have whole seconds, so it is sent only once the second of the build has passed at the
 *   request's start: a change committed after that request read the catalogue is built later, in a
 *   later second, and can never be hidden behind an If-Modified-Since of the earlier answer (RFC 9110
 *   §8.8.2.2 on validators strong to the second).
 */
export async function sendOpds<T>(
  ctx: ReaderContext,
  req: FastifyRequest,
  reply: FastifyReply,
  answer: {
    /** unique per dialect and kind of document */
    key: string;
    plan: OpdsPlan<T>;
    type: string;
    render: (value: T, builtAt: number) => string;
    /** ctx.now() when the request began, before the catalogue was read */
    startedAt: number;
  },
): Promise<FastifyReply> {
  const { plan } = answer;
  const key = `opds:${answer.key}:${plan.key}`;
  const memo = ctx.catalog;
  const version = memo?.syncedVersion ?? -1;
  const etag = version >= 0 ? `W/"${version}-${digest(key)}"` : undefined;
  // apps keep feeds and ask again: they may store them, but must revalidate before reuse
  reply.header('cache-control', 'no-cache');
  if (etag) reply.header('etag', etag);
  const ifNoneMatch = req.headers['if-none-match'];
  if (etag && ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) return reply.code(304).send();
  const build = async (): Promise<FeedAnswer> => {
    const value = await plan.build();
    const builtAt = ctx.now();
    return { body: keptBytes(answer.render(value, builtAt)), builtAt };
  };
  const made = memo && etag ? await memo.answer(key, build) : await build();
  const lastModified =
    plan.catalogueOnly && etag && second(answer.startedAt) > second(made.builtAt) ? made.builtAt : undefined;
  if (lastModified !== undefined) {
    reply.header('last-modified', new Date(lastModified).toUTCString());
    // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3)
    const since = Date.parse(String(req.headers['if-modified-since'] ?? ''));
    if (ifNoneMatch === undefined && second(lastModified) * 1000 <= since) return reply.code(304).send();
  }
  return reply.type(answer.type).send(made.body);
}

const second = (ms: number) => Math.floor(ms / 1000);

function digest(text: string): string {
  return createHash('sha256').update(`${RENDERING}:${text}`).digest('base64url').slice(0, 16);
}

/** Weak comparison (RFC 9110 §8.8.3.2) with each tag of an If-None-Match list; `*` is not honoured. */
function matches(header: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}
