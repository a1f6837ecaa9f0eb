import { Keep, type Versions } from '@readlib/cache';
import type { DetailPlan, ReaderVersion } from '@readlib/catalog';
import type { FastifyReply } from 'fastify';
import { keptBytes, ok, sendJson } from '../route-options.js';

/** Books whose serialised detail is kept (~1.6 KB each). */
export const DETAIL_ANSWERS_KEPT = 10_000;

/** Serialised in place of the caller's rank, then cut out: no other integer field is named rank. */
const RANK_MARK = -2_147_483_647;
const MARK = `"rank":${RANK_MARK}`;

interface Answer {
  /** UTF-8 bytes: kept as text, a detail was measured and encoded again on every request */
  head: Buffer;
  tail: Buffer;
}

/**
 * The serialised detail of each book, shared by every caller with the caller's own rank put in its
 * place. It depends on the book's row (the catalogue version, keyed by book), on readers' nicknames
 * and avatars (the profiles version), and on the book's counts, which are read on every request and
 * are the entry's tag: every view (so every change of its ten readers) and every rating moves one.
 */
export class DetailAnswers {
  private readonly answers: Keep<ReaderVersion, number, Answer>;

  constructor(versions: Versions<ReaderVersion>) {
    this.answers = new Keep(versions, {
      name: 'book details, serialised',
      key: "book id; tagged with the book's counts",
      dependsOn: ['catalog', 'profiles'],
      keyedBy: 'catalog',
      max: DETAIL_ANSWERS_KEPT,
    });
  }

  /** Sends the detail envelope, serialised with the route's response schema on a miss. */
  async send(reply: FastifyReply, plan: DetailPlan): Promise<FastifyReply> {
    return sendJson(reply, await this.answer(reply, plan));
  }

  private async answer(reply: FastifyReply, plan: DetailPlan): Promise<string | Buffer> {
    const kept = this.answers.get(plan.book.id, plan.tag);
    if (kept) return spliced(kept, plan.rank);
    const detail = await plan.detail();
    const json = reply.serialize(ok({ ...detail, rank: RANK_MARK })) as string;
    // the schema serialises every field it declares, rank included; should it ever not, keep nothing
    if (!json.includes(MARK)) return reply.serialize(ok({ ...detail, rank: plan.rank })) as string;
    // both halves in one buffer: a registered reader's view moves the counts, so this runs per view
    const bytes = keptBytes(json);
    const at = bytes.indexOf(MARK);
    const answer = { head: bytes.subarray(0, at), tail: bytes.subarray(at + MARK.length) };
    this.answers.set(plan.book.id, answer, plan.seen, plan.tag);
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
