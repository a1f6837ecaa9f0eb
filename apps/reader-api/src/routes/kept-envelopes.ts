import type { FastifyReply } from 'fastify';
import { keptBytes, ok, sendJson } from './route-options.js';

/**
 * The serialised envelopes of answers the catalogue memo keeps (a search's page, a search-list page):
 * the memo hands out the same object for as long as it holds the answer and never changes it, so the
 * envelope is serialised with the route's schema and encoded to UTF-8 once per object instead of on
 * every request. An object is kept from the second time it is sent: a page the memo does not keep
 * (pages larger than the default) is a new object every time and is sent as text, with no buffer
 * allocated for it. Entries go with their objects (weak keys).
 */
export class KeptEnvelopes {
  private readonly seen = new WeakSet<object>();
  private readonly kept = new WeakMap<object, Buffer>();

  send(reply: FastifyReply, data: object): FastifyReply {
    const bytes = this.kept.get(data);
    if (bytes !== undefined) return sendJson(reply, bytes);
    const json = reply.serialize(ok(data)) as string;
    if (!this.seen.has(data)) {
      this.seen.add(data);
      return sendJson(reply, json);
    }
    const made = keptBytes(json);
    this.kept.set(data, made);
    return sendJson(reply, made);
  }
}
