import type { Derived, Keep } from '@readlib/cache';
import {
  type DetailFacts,
  type DetailPlan,
  formatRankAvg,
  type PublicUrls,
  type ReaderKeeps,
  type ReaderVersion,
  toBookDetailHead,
  toReader,
} from '@readlib/catalog';
import type { BookRow } from '@readlib/data';
import type { FastifyReply } from 'fastify';
import { DATA_HEAD, keptBytes, sendJson } from '../route-options.js';

/** Books whose serialised detail is kept (~1.6 KB each). */
export const DETAIL_ANSWERS_KEPT = 10_000;

interface Answer {
  /** the envelope up to the caller's rank, as UTF-8 bytes */
  head: Buffer;
  /** the envelope after it */
  tail: Buffer;
}

/**
 * Book detail envelopes, made of bytes: the part that is the book row's alone (the summary, flags,
 * OPF; ~1.2 KB) is serialised once per row object, kept while the catalogue memo hands out that row
 * (an edit replaces it, never changes it in place), and only the readers and counts are written per
 * answer. The bytes are what the route's schema serialiser writes for the same detail, field for
 * field in the contract's order (tested against it).
 *
 * A whole answer is also kept per book and shared by every caller, with the caller's own rank put in
 * its place. It depends on the book's row (the catalogue version, keyed by book), on readers'
 * nicknames and avatars (the profiles version), and on the book's counts, which are read on every
 * request and are the entry's tag: every view (so every change of its ten readers) and every rating
 * moves one. The answer of a request that recorded a view is not kept: the next registered reader's
 * view moves the counts again, so mostly only an anonymous caller could have used it, and that one
 * keeps its own.
 */
export class DetailAnswers {
  private readonly answers: Keep<ReaderVersion, number, Answer>;
  /** per book row: `<envelope head>{<the row's fields>` */
  private readonly heads: Derived<ReaderVersion, BookRow, Buffer>;

  constructor(
    keeps: ReaderKeeps,
    private readonly urls: PublicUrls,
  ) {
    this.answers = keeps.keep({
      name: 'book details, serialised',
      key: "book id; tagged with the book's counts",
      dependsOn: ['catalog', 'profiles'],
      keyedBy: 'catalog',
      max: DETAIL_ANSWERS_KEPT,
    });
    this.heads = keeps.derived("book details' row part, serialised", 'book rows');
  }

  async send(reply: FastifyReply, plan: DetailPlan): Promise<FastifyReply> {
    return sendJson(reply, await this.envelope(plan));
  }

  /** The detail envelope of a plan, as UTF-8 bytes: the kept answer with the caller's rank, or made. */
  async envelope(plan: DetailPlan): Promise<Buffer> {
    const kept = this.answers.get(plan.book.id, plan.tag);
    if (kept) return spliced(kept, plan.rank);
    const [before, after] = this.parts(plan.book, await plan.facts());
    if (plan.visited) return joined([before.head, before.readers, `"rank":${int(plan.rank)}`, after]);
    const answer = { head: joined([before.head, before.readers], true), tail: keptBytes(after) };
    this.answers.set(plan.book.id, answer, plan.seen, plan.tag);
    return spliced(answer, plan.rank);
  }

  /** The detail envelope for `facts` (its rank included) as UTF-8 bytes. */
  bytes(book: BookRow, facts: DetailFacts): Buffer {
    const [before, after] = this.parts(book, facts);
    return joined([before.head, before.readers, `"rank":${int(facts.rank)}`, after]);
  }

  /** The envelope before the rank field (the row's part, then the readers) and after it. */
  private parts(book: BookRow, facts: DetailFacts): [{ head: Buffer; readers: string }, string] {
    const head = this.heads.of(book, (row) =>
      keptBytes(`${DATA_HEAD}${JSON.stringify(toBookDetailHead(row, this.urls)).slice(0, -1)}`),
    );
    const readers = `,"readers":${JSON.stringify(facts.readers.map(toReader))},"readerNum":${int(facts.readerNum)},`;
    const avg = JSON.stringify(formatRankAvg(facts.rankAvg, facts.rankNum));
    return [{ head, readers }, `,"rankNum":${int(facts.rankNum)},"rankAvg":${avg}}}`];
  }
}

/** An integer field as the schema serialiser writes one: a fraction is cut off. */
const int = (n: number): number => Math.trunc(n);

/** Bytes and text joined as UTF-8, in a buffer of its own when it is to be kept. */
function joined(parts: ReadonlyArray<Buffer | string>, kept = false): Buffer {
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const bytes = kept ? Buffer.allocUnsafeSlow(length) : Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += typeof part === 'string' ? bytes.write(part, at) : part.copy(bytes, at);
  return bytes;
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
