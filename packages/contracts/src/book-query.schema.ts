import { type Static, Type } from '@sinclair/typebox';
import { fileNameParam, openIdParam, optionalOpenIdParam, RANK_MAX, RANK_MIN } from './fields.js';

/** GET /book/detail query (spec §4.7). Supplying openId records a view (decisions.md §3). */
export const DetailQuery = Type.Object(
  {
    fileName: fileNameParam(),
    openId: optionalOpenIdParam('User identifier; when sent, a view is recorded and rank is theirs.'),
  },
  { $id: 'DetailQuery', description: 'Book detail query (spec §4.7).' },
);
export interface DetailQuery extends Static<typeof DetailQuery> {}

/** GET /book/contents query (spec §4.7). */
export const ContentsQuery = Type.Object(
  { fileName: fileNameParam() },
  { $id: 'ContentsQuery', description: 'Table-of-contents query (spec §4.7).' },
);
export interface ContentsQuery extends Static<typeof ContentsQuery> {}

/** GET /book/rank/save query (spec §4.9): rank is an integer 1 to 5 (decisions.md §3). */
export const RankSaveQuery = Type.Object(
  {
    fileName: fileNameParam(),
    openId: openIdParam('Registered user identifier (error_code 4 when never registered).'),
    rank: Type.Integer({
      minimum: RANK_MIN,
      maximum: RANK_MAX,
      description: `Rating, an integer from ${RANK_MIN} to ${RANK_MAX}; replaces the user's previous rating.`,
    }),
  },
  { $id: 'RankSaveQuery', description: 'Rating query (spec §4.9).' },
);
export interface RankSaveQuery extends Static<typeof RankSaveQuery> {}
