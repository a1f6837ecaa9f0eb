import { BoundedMap, type ShelfPlan } from '@readlib/catalog';
import type { FastifyReply } from 'fastify';
import { keptBytes, ok, sendJson } from '../route-options.js';

/** Users whose serialised shelf is kept. */
export const SHELF_ANSWERS_KEPT = 5_000;
/** Longer answers (~35 books and up) are serialised every time: the memory bound stays ~80 MB. */
export const SHELF_ANSWER_MAX_BYTES = 16_384;

interface Answer {
  stamp: string;
  bytes: Buffer;
}

/**
 * The serialised shelf of each user, reused while the plan's stamp (catalogue version and entries, read
 * on every request) stays the same. A shelf otherwise looks up or reads ten book rows, maps and
 * serialises ~4.5 KB per request, most of its cost once its entries are read. It is kept as UTF-8
 * bytes: kept as text, it was measured and encoded again on every request.
 */
export class ShelfAnswers {
  private readonly answers = new BoundedMap<number, Answer>(SHELF_ANSWERS_KEPT);

  /** Sends the shelf envelope, serialised with the route's response schema on a miss. */
  async send(reply: FastifyReply, plan: ShelfPlan): Promise<FastifyReply> {
    return sendJson(reply, await this.answer(reply, plan));
  }

  private async answer(reply: FastifyReply, plan: ShelfPlan): Promise<string | Buffer> {
    const { userId, stamp } = plan;
    const kept = userId === undefined ? undefined : this.answers.get(userId);
    if (kept && kept.stamp === stamp) return kept.bytes;
    const json = reply.serialize(ok(await plan.entries())) as string;
    if (userId === undefined || stamp === undefined) return json;
    // UTF-8 takes at least a byte a character: text longer than the bound is not encoded to be dropped
    const bytes = json.length <= SHELF_ANSWER_MAX_BYTES ? keptBytes(json) : undefined;
    if (bytes !== undefined && bytes.length <= SHELF_ANSWER_MAX_BYTES) {
      this.answers.set(userId, { stamp, bytes });
      return bytes;
    }
    this.answers.delete(userId);
    return json;
  }
}
