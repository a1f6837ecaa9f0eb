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
  /**
   * the envelope of a caller who has not rated the book (rank 0: every anonymous caller), as UTF-8
   * bytes: sent as it is, never changed (many responses may be writing it at once)
   */
  unrated: Buffer;
  /** where its rank field begins: another caller's rank goes in its place */
  rankAt: number;
}

/**
 * Book detail envelopes, made of bytes: the part that is the book row's alone (the summary, flags,
 * OPF; ~1.2 KB) is serialised once per row object, kept while the catalogue memo hands out that row
 * (an edit replaces it, never changes it in place), and only the readers and counts are written per
 * answer. The bytes are what the route's schema serialiser writes for the same detail, field for
 * field in the contract's order (tested against it).
 *
 * A whole answer is also kept per book and shared by every caller: a caller who has not rated the
 * book (every anonymous one) is sent the kept bytes themselves, another gets a copy with their rank.
 * It depends on the book's row (the catalogue version, keyed by book), on readers' nicknames and
 * avatars (the profiles version), and on the book's counts, which are read on every request and are
 * the entry's tag: every view (so every change of its ten readers) and every rating moves one. The
 * answer of a request that recorded a view is not kept: the next registered reader's view moves the
 * counts again, so mostly only an anonymous caller could have used it, and that one keeps its own.
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
    if (kept) return withRank(kept, plan.rank);
    const facts = await plan.facts();
    if (plan.visited) return this.bytes(plan.book, facts, plan.rank);
    const { head, readers, tail } = this.parts(plan.book, facts);
    const answer = {
      unrated: joined([head, readers, UNRATED, tail], true),
      rankAt: head.length + Buffer.byteLength(readers),
    };
    this.answers.set(plan.book.id, answer, plan.seen, plan.tag);
    return withRank(answer, plan.rank);
  }

  /** The detail envelope for `facts` as UTF-8 bytes, with `rank` (by default the facts' own). */
  bytes(book: BookRow, facts: DetailFacts, rank = facts.rank): Buffer {
    const { head, readers, tail } = this.parts(book, facts);
    return joined([head, readers, rankField(rank), tail]);
  }

  /** The envelope around the rank field: the row's part, then the readers before it; the counts after. */
  private parts(book: BookRow, facts: DetailFacts): { head: Buffer; readers: string; tail: string } {
    const head = this.heads.of(book, (row) =>
      keptBytes(`${DATA_HEAD}${JSON.stringify(toBookDetailHead(row, this.urls)).slice(0, -1)}`),
    );
    const readers = `,"readers":${JSON.stringify(facts.readers.map(toReader))},"readerNum":${int(facts.readerNum)},`;
    const avg = JSON.stringify(formatRankAvg(facts.rankAvg, facts.rankNum));
    return { head, readers, tail: `,"rankNum":${int(facts.rankNum)},"rankAvg":${avg}}}` };
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

const rankField = (rank: number): string => `"rank":${int(rank)}`;
const UNRATED = rankField(0);

/** A kept answer with the caller's rank: the kept bytes themselves for rank 0, else a copy. */
function withRank(a: Answer, rank: number): Buffer {
  if (int(rank) === 0) return a.unrated;
  const { unrated, rankAt } = a;
  return joined([unrated.subarray(0, rankAt), rankField(rank), unrated.subarray(rankAt + UNRATED.length)]);
}
