import { BoundedMap, type ShelfPlan } from '@readlib/catalog';
import type { FastifyReply } from 'fastify';
import { ok, sendJson } from '../route-options.js';

/** Users whose serialised shelf is kept. */
export const SHELF_ANSWERS_KEPT = 5_000;
/** Longer answers (~35 books and up) are serialised every time: the memory bound stays ~80 MB. */
export const SHELF_ANSWER_MAX_CHARS = 16_384;

interface Answer {
  stamp: string;
  json: string;
}

/**
 * The serialised shelf of each user, reused while the plan's stamp (catalogue version and entries, read
 * on every request) stays the same. A shelf otherwise looks up or reads ten book rows, maps and
 * serialises ~4.5 KB per request, most of its cost once its entries are read.
 */
export class ShelfAnswers {
  private readonly answers = new BoundedMap<number, Answer>(SHELF_ANSWERS_KEPT);

  /** Sends the shelf envelope, serialised with the route's response schema on a miss. */
  async send(reply: FastifyReply, plan: ShelfPlan): Promise<FastifyReply> {
    return sendJson(reply, await this.answer(reply, plan));
  }

  private async answer(reply: FastifyReply, plan: ShelfPlan): Promise<string> {
    const { userId, stamp } = plan;
    const kept = userId === undefined ? undefined : this.answers.get(userId);
    if (kept && kept.stamp === stamp) return kept.json;
    const json = reply.serialize(ok(await plan.entries())) as string;
    if (userId === undefined || stamp === undefined) return json;
    if (json.length <= SHELF_ANSWER_MAX_CHARS) this.answers.set(userId, { stamp, json });
    else this.answers.delete(userId);
    return json;
  }
}
