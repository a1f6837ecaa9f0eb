import { BoundedMap, type DetailPlan } from '@readlib/catalog';
import type { BookRow } from '@readlib/data';
import type { FastifyReply } from 'fastify';
import { keptBytes, ok, sendJson } from '../route-options.js';

/** Books whose serialised detail is kept (~1.6 KB each). */
export const DETAIL_ANSWERS_KEPT = 10_000;

/** Serialised in place of the caller's rank, then cut out: no other integer field is named rank. */
const RANK_MARK = -2_147_483_647;
const MARK = `"rank":${RANK_MARK}`;

interface Answer {
  book: BookRow;
  stamp: string;
  /** UTF-8 bytes: kept as text, a detail was measured and encoded again on every request */
  head: Buffer;
  tail: Buffer;
}

/**
 * The serialised detail of each book, kept while its plan's book row and stamp stay the same and
 * shared by every caller, with the caller's own rank put in its place. A detail otherwise reads its ten
 * latest readers and serialises ~1.6 KB per request: most of its cost once the book row is in memory.
 * Any change a detail shows moves the stamp or replaces the row (DetailPlan), in whichever process it
 * was made, so nothing kept outlives a committed change.
 */
export class DetailAnswers {
  private readonly answers = new BoundedMap<number, Answer>(DETAIL_ANSWERS_KEPT);

  /** Sends the detail envelope, serialised with the route's response schema on a miss. */
  async send(reply: FastifyReply, plan: DetailPlan): Promise<FastifyReply> {
    return sendJson(reply, await this.answer(reply, plan));
  }

  private async answer(reply: FastifyReply, plan: DetailPlan): Promise<string | Buffer> {
    const kept = this.answers.get(plan.book.id);
    if (kept && kept.book === plan.book && kept.stamp === plan.stamp) return spliced(kept, plan.rank);
    const detail = await plan.detail();
    const json = reply.serialize(ok({ ...detail, rank: RANK_MARK })) as string;
    // the schema serialises every field it declares, rank included; should it ever not, keep nothing
    if (!json.includes(MARK)) return reply.serialize(ok({ ...detail, rank: plan.rank })) as string;
    // both halves in one buffer: a registered reader's view moves the stamp, so this runs per view
    const bytes = keptBytes(json);
    const at = bytes.indexOf(MARK);
    const answer = {
      book: plan.book,
      stamp: plan.stamp ?? '',
      head: bytes.subarray(0, at),
      tail: bytes.subarray(at + MARK.length),
    };
    if (plan.stamp !== undefined) this.answers.set(plan.book.id, answer);
    return spliced(answer, plan.rank);
  }
}

/** The kept answer with `"rank":<rank>` between its parts. */
function spliced(a: Answer, rank: number): Buffer {
  const field = `"rank":${rank}`;
  const bytes = Buffer.allocUnsafe(a.head.length + field.length + a.tail.length);
  bytes.set(a.head, 0);
  bytes.write(field, a.head.length, 'latin1');
  bytes.set(a.tail, a.head.length + field.length);
  return bytes;
}
