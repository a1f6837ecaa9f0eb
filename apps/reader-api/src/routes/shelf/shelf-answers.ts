import { Keep, type Versions } from '@readlib/cache';
import type { ReaderVersion, ShelfPlan } from '@readlib/catalog';
import type { FastifyReply } from 'fastify';
import { keptBytes, ok, sendJson } from '../route-options.js';

/** Bytes of serialised shelves kept, all users together. */
export const SHELF_ANSWERS_BYTES = 80 * 1024 * 1024;

/**
 * The serialised shelf of each user. It depends on the books' rows (the catalogue version) and on the
 * user's entries (book and time, in order), which are read on every request and are the entry's tag.
 * A shelf otherwise looks up ten book rows, maps and serialises ~4.5 KB per request, most of its cost
 * once its entries are read. Kept as UTF-8 bytes, weighed by their length against one budget.
 */
export class ShelfAnswers {
  private readonly answers: Keep<ReaderVersion, number, Buffer>;

  constructor(versions: Versions<ReaderVersion>, maxBytes = SHELF_ANSWERS_BYTES) {
    this.answers = new Keep(versions, {
      name: 'shelves, serialised',
      key: "user id; tagged with the user's entries",
      dependsOn: ['catalog'],
      max: maxBytes,
      weigh: (bytes) => bytes.length,
      unit: 'bytes',
    });
  }

  /** Sends the shelf envelope, serialised with the route's response schema on a miss. */
  async send(reply: FastifyReply, plan: ShelfPlan): Promise<FastifyReply> {
    return sendJson(reply, await this.answer(reply, plan));
  }

  private async answer(reply: FastifyReply, plan: ShelfPlan): Promise<string | Buffer> {
    const { userId, tag } = plan;
    if (userId === undefined || tag === undefined) return reply.serialize(ok(await plan.entries())) as string;
    const kept = this.answers.get(userId, tag);
    if (kept) return kept;
    const bytes = keptBytes(reply.serialize(ok(await plan.entries())) as string);
    this.answers.set(userId, bytes, plan.seen, tag);
    return bytes;
  }
}
