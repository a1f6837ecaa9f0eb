import { type Static, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';

/** Limits shared by the schemas (spec §8, decisions.md §3 and §5). */
export const PAGE_DEFAULT = 1;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const READERS_MAX = 10;
export const RANK_MIN = 1;
export const RANK_MAX = 5;
export const SCREEN_DAYS_DEFAULT = 30;
export const SCREEN_DAYS_MAX = 366;
export const DEFAULT_PLATFORM = 'wx';

/** Maximum lengths of free strings accepted from clients. */
export const MaxLength = {
  openId: 128,
  fileName: 128,
  keyword: 100,
  /**
   * a list filter (title, author, publisher, category): as long as a stored text (`text`), so a client
   * that filters by a book's own author or title, as a detail page's author link does, finds it
   */
  filter: 256,
  nickName: 64,
  avatarUrl: 1024,
  url: 2048,
  text: 256,
  path: 1024,
  shortText: 64,
  code: 32,
  appId: 64,
  authCode: 512,
  secret: 256,
  username: 128,
  password: 256,
} as const;

/**
 * A `$ref` to a schema that carries an `$id`, typed as the referenced schema.
 * Same JSON as `Type.Ref(schema)` (`{ $ref: '<$id>' }`), without the signature deprecated in TypeBox 0.34.
 */
export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  if (typeof schema.$id !== 'string') throw new Error('ref(): the referenced schema has no $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/** A required, non-empty string parameter. */
export const requiredString = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, description });

/** A free string parameter (may be empty). */
export const freeString = (maxLength: number, description: string) => Type.String({ maxLength, description });

export const openIdParam = (description = 'User identifier on the host platform (openId).') =>
  requiredString(MaxLength.openId, description);

/**
 * An openId a read may go without: empty counts as not sent, as a client before its login sends it
 * (`openId=`), like the blank filters of search-list.
 */
export const optionalOpenIdParam = (description: string) =>
  Type.Optional(freeString(MaxLength.openId, `${description} Empty counts as not sent.`));

export const fileNameParam = (description = 'E-book file name, the unique identifier of the book.') =>
  requiredString(MaxLength.fileName, description);

export const pageParam = () =>
  Type.Integer({ minimum: 1, default: PAGE_DEFAULT, description: 'Page number, starting at 1 (default 1).' });

/**
 * No `maximum`: decisions.md §3 caps pageSize at 100, so a larger one is served as 100 (see paging in
 * the catalogue), as a client asking for "everything" expects, rather than refused.
 */
export const pageSizeParam = () =>
  Type.Integer({
    minimum: 1,
    default: PAGE_SIZE_DEFAULT,
    description: `Items per page (default ${PAGE_SIZE_DEFAULT}); a larger value than ${PAGE_SIZE_MAX} is served as ${PAGE_SIZE_MAX}.`,
  });
