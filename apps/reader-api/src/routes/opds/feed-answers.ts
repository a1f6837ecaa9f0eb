import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { OpdsPlan, ReaderContext } from '@readlib/catalog';
import type { FastifyReply, FastifyRequest } from 'fastify';
import vary from 'vary';
import { keptBytes } from '../route-options.js';

/** An OPDS answer as sent: UTF-8 bytes, kept per catalogue version, and when they were made. */
interface FeedAnswer {
  body: Buffer;
  builtAt: number;
  /** builtAt as an HTTP date */
  lastModified: string;
  /** body gzipped, made by the first request that accepts it and kept as long as body is */
  gzipped?: Buffer;
}

/**
 * Answers from this size on are sent gzipped to an app that accepts it (feeds of 20 books shrink
 * about eightfold); smaller ones fit a packet as they are.
 */
export const GZIP_FROM_BYTES = 1024;

/**
 * Part of every ETag: moved when the rendering changes, so an app's copy from an older build of the
 * service is sent again rather than confirmed.
 */
const RENDERING = 3;

/** What one request asks of `send`. */
export interface OpdsAnswer<T> {
  /** unique per dialect and kind of document */
  key: string;
  plan: OpdsPlan<T>;
  type: string;
  render(value: T, builtAt: number): string;
  /** ctx.now() when the request began, before the catalogue was read */
  startedAt: number;
}

/**
 * Sends OPDS answers the way search-list pages are sent: built once per catalogue version and key
 * (in the catalogue memo's answers) and kept as bytes. Validators cost almost nothing:
 *
 * - ETag: the rendering and base URL (digested once), the catalogue version, and a digest of the plan's
 *   variant where the answer depends on more than the catalogue (the popular ranking). The version is
 *   read before anything is built, and a kept answer is one built within that version, so a tag never
 *   names content older than its version, and every book write (any process) changes the tags. A
 *   matching If-None-Match is a 304 before anything is read or built.
 * - Last-Modified: when this process built the answer, on answers that depend on the catalogue alone.
 *   HTTP dates have whole seconds, so it is sent only once the second of the build has passed at the
 *   request's start: a change committed after that request read the catalogue is built later, in a
 *   later second, and can never be hidden behind an If-Modified-Since of the earlier answer (RFC 9110
 *   §8.8.2.2 on validators strong to the second).
 */
export class OpdsAnswers {
  private readonly site: string;

  constructor(
    private readonly ctx: ReaderContext,
    publicBaseUrl: string,
  ) {
    this.site = digest(`${RENDERING}:${publicBaseUrl}`);
  }

  async send<T>(req: FastifyRequest, reply: FastifyReply, answer: OpdsAnswer<T>): Promise<FastifyReply> {
    const { ctx } = this;
    const { plan } = answer;
    // read before anything is built: what is built after it is of this version or a later one
    const version = ctx.keeps.versions.valueOf('catalog');
    const etag =
      version !== undefined
        ? `W/"${this.site}.${version}${plan.variant === undefined ? '' : `.${digest(plan.variant)}`}"`
        : undefined;
    // apps keep feeds and ask again: they may store them, but must revalidate before reuse
    reply.header('cache-control', 'no-cache');
    // the same tag names the gzipped and the plain bytes (weak: equal content), as a proxy's gzip does
    reply.header('vary', vary.append(String(reply.getHeader('vary') ?? ''), 'Accept-Encoding'));
    if (etag) reply.header('etag', etag);
    const ifNoneMatch = req.headers['if-none-match'];
    if (etag && ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) return reply.code(304).send();
    const build = async (): Promise<FeedAnswer> => {
      const value = await plan.build();
      const builtAt = ctx.now();
      const body = keptBytes(answer.render(value, builtAt));
      return { body, builtAt, lastModified: new Date(builtAt).toUTCString() };
    };
    const made = etag ? await plan.view.answer(`opds:${answer.key}:${plan.key}`, build) : await build();
    if (plan.variant === undefined && etag && second(answer.startedAt) > second(made.builtAt)) {
      reply.header('last-modified', made.lastModified);
      // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3)
      const since = ifNoneMatch === undefined ? req.headers['if-modified-since'] : undefined;
      if (since !== undefined && second(made.builtAt) * 1000 <= Date.parse(since))
        return reply.code(304).send();
    }
    return reply.type(answer.type).send(encoded(req, reply, made));
  }
}

/** The answer's bytes as the request accepts them: gzipped when it may be and is worth it. */
function encoded(req: FastifyRequest, reply: FastifyReply, made: FeedAnswer): Buffer {
  const accepted = req.headers['accept-encoding'];
  if (made.body.length < GZIP_FROM_BYTES || accepted === undefined) return made.body;
  if (negotiate(accepted, ['gzip', 'identity']) !== 'gzip') return made.body;
  made.gzipped ??= gzipSync(made.body);
  reply.header('content-encoding', 'gzip');
  return made.gzipped;
}

const second = (ms: number) => Math.floor(ms / 1000);

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/** Weak comparison (RFC 9110 §8.8.3.2) with each tag of an If-None-Match list; `*` is not honoured. */
function matches(header: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}
