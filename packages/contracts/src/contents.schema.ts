import { type Static, Type } from '@sinclair/typebox';
import { BookDetail } from './book.schema.js';
import { ref } from './fields.js';

/** One entry of the flat table of contents, in document order (spec §2.10, decisions.md §3). */
export const ContentsEntry = Type.Object(
  {
    id: Type.String({ description: 'Entry id (the navigation point id).' }),
    href: Type.String({
      description:
        'Target of the entry: its path inside the archive (relative to `/res/unzip/<fileName>/`, not to the package file), with its #fragment.',
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
export interface ContentsEntry extends Static<typeof ContentsEntry> {}

// A named interface rather than `Static<typeof ContentsNode>`: declaration emit cannot print an
// anonymous recursive type (it elides the nested level to an array of any), so the schemas that
// reference this one are typed through this name (see ContentsTree). test/reader-resources.test.ts
// checks it is the schema's static type.
/** A table-of-contents entry with its nested entries (the `contentsTree`). */
export interface ContentsNode extends ContentsEntry {
  children: ContentsNode[];
}

export const ContentsNode = Type.Recursive(
  (This) =>
    Type.Object({
      ...ContentsEntry.properties,
      children: Type.Array(This, { description: 'Entries nested under this one, in document order.' }),
    }),
  { $id: 'ContentsNode', description: 'Table-of-contents entry with its nested entries.' },
);

const contents = () =>
  Type.Array(ref(ContentsEntry), { description: 'Flat table of contents, in document order.' });

/**
 * The `contentsTree`: the array of the top-level entries, each carrying its own `children` (empty for a
 * leaf). The original service answers this array and the original console hands it to a tree component
 * that needs an array; the spec's "object" is the original's loose typing of it.
 */
export const ContentsTree = Type.Array(Type.Unsafe<ContentsNode>(ref(ContentsNode)), {
  $id: 'ContentsTree',
  description:
    'Tree-shaped table of contents: the top-level entries, in document order, each with its nested entries.',
});
export interface ContentsTree extends Static<typeof ContentsTree> {}

const contentsTree = () => ref(ContentsTree);

/** GET /book/contents: detail-shaped object plus contents and contentsTree (spec §4.7, decisions.md §3). */
export const BookContents = Type.Object(
  { ...BookDetail.properties, contents: contents(), contentsTree: contentsTree() },
  { $id: 'BookContents', description: 'Book detail with its table of contents (spec §4.7).' },
);
export interface BookContents extends Static<typeof BookContents> {}

/** Shared by the admin e-book with contents. */
export const contentsProperties = () => ({ contents: contents(), contentsTree: contentsTree() });
