import { Derived, type Versions } from '@readlib/cache';
import type { ReaderVersion } from '@readlib/catalog';
import type { FastifyReply } from 'fastify';
import { keptBytes, ok, sendJson } from './route-options.js';

/**
 * The serialised envelopes of answers the catalogue keeps (a search's page, a search-list page): a
 * kept answer is the same object for as long as it is kept and is never changed, so its envelope is
 * serialised with the route's schema and encoded to UTF-8 once per object, derived from it. An object
 * is kept from the second time it is sent: a page that is not kept (pages larger than the default) is a
 * new object every time and is sent as text, with no buffer allocated for it.
 */
export class KeptEnvelopes {
  private readonly envelopes: Derived<ReaderVersion, object, Buffer | 'sent once'>;

  constructor(versions: Versions<ReaderVersion>, name: string) {
    this.envelopes = new Derived(versions, name, 'catalogue answers');
  }

  send(reply: FastifyReply, data: object): FastifyReply {
    const kept = this.envelopes.peek(data);
    if (kept instanceof Buffer) return sendJson(reply, kept);
    const json = reply.serialize(ok(data)) as string;
    if (kept === undefined) {
      this.envelopes.set(data, 'sent once');
      return sendJson(reply, json);
    }
    const made = keptBytes(json);
    this.envelopes.set(data, made);
    return sendJson(reply, made);
  }
}
