import { type Static, Type } from '@sinclair/typebox';
import { BookDetail } from './book.schema.js';
import { ref } from './fields.js';

/** One entry of the flat table of contents, in document order (spec §2.10, decisions.md §3). */
export const ContentsEntry = Type.Object(
  {
    id: Type.String({ description: 'Entry id (the navigation point id).' }),
    href: Type.String({
      description: 'Target of the entry, relative to the package root file, with fragment.',
    }),
    label: Type.String({ description: 'Entry title as shown in the table of contents.' }),
    level: Type.Integer({ minimum: 0, description: 'Nesting depth: 0 for top-level entries.' }),
    pid: Type.String({ description: 'Id of the parent entry; empty string for top-level entries.' }),
    navId: Type.String({ description: 'Navigation point id in the navigation document.' }),
    order: Type.Integer({ description: 'Position of the entry in document (play) order.' }),
    text: Type.String({ description: 'Absolute URL of the resource the entry points to.' }),
  },
  { $id: 'ContentsEntry', description: 'Table-of-contents entry.' },
);
export type ContentsEntry = Static<typeof ContentsEntry>;

/** A table-of-contents entry with its nested entries (the `contentsTree`). */
export const ContentsNode = Type.Recursive(
  (This) =>
    Type.Object({
      ...ContentsEntry.properties,
      children: Type.Array(This, { description: 'Entries nested under this one, in document order.' }),
    }),
  { $id: 'ContentsNode', description: 'Table-of-contents entry with its nested entries.' },
);
export type ContentsNode = Static<typeof ContentsNode>;

const contents = () =>
  Type.Array(ref(ContentsEntry), { description: 'Flat table of contents, in document order.' });

/**
 * The `contentsTree` of spec §2.10, an object (the row above it, `contents`, is the array): the tree's
 * root, whose children are the top-level entries. It had been the array of those entries, which the
 * spec's type does not allow (found by an audit).
 */
export const ContentsTree = Type.Object(
  {
    children: Type.Array(ref(ContentsNode), {
      description: 'Top-level entries, in document order, each with its nested entries.',
    }),
  },
  {
    $id: 'ContentsTree',
    description: 'Tree-shaped table of contents: its root, holding the top-level entries (spec §2.10).',
  },
);
export type ContentsTree = Static<typeof ContentsTree>;

const contentsTree = () => ref(ContentsTree);

/** GET /book/contents: detail-shaped object plus contents and contentsTree (spec §4.7, decisions.md §3). */
export const BookContents = Type.Object(
  { ...BookDetail.properties, contents: contents(), contentsTree: contentsTree() },
  { $id: 'BookContents', description: 'Book detail with its table of contents (spec §4.7).' },
);
export type BookContents = Static<typeof BookContents>;

/** Shared by the admin e-book with contents. */
export const contentsProperties = () => ({ contents: contents(), contentsTree: contentsTree() });
