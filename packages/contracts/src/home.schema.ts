import { type Static, Type } from '@sinclair/typebox';
import { BookSummary } from './book.schema.js';
import { openIdParam, ref } from './fields.js';

/** Category item of the home page and category list (spec §2.5). */
export const CategoryItem = Type.Object(
  {
    category: Type.Integer({ description: 'Category id.' }),
    categoryText: Type.String({ description: 'Category name.' }),
    num: Type.Integer({ minimum: 0, description: 'Number of books in the category.' }),
    cover: Type.String({
      description: "Cover URL of one book of the category; '' when none of its books has a cover.",
    }),
    cover2: Type.String({
      description:
        "Cover URL of a second book of the category; the first's when it has one cover only ('' with none).",
    }),
  },
  { $id: 'CategoryItem', description: 'Category item (spec §2.5).' },
);
export interface CategoryItem extends Static<typeof CategoryItem> {}

/** Home-page hot search term (spec §2.6). */
export const HotSearch = Type.Object(
  {
    num: Type.Integer({ minimum: 0, description: 'Number of searches of the keyword in the last 30 days.' }),
    keyword: Type.String({ description: 'The most searched keyword of the last 30 days.' }),
  },
  { $id: 'HotSearch', description: 'Hot search term (spec §2.6).' },
);
export interface HotSearch extends Static<typeof HotSearch> {}

/** Home-page banner (spec §2.6). */
export const Banner = Type.Object(
  {
    img: Type.String({ description: 'Banner image URL.' }),
    title: Type.String({ description: 'Title.' }),
    subTitle: Type.String({ description: 'Subtitle.' }),
    url: Type.String({ description: 'Link target.' }),
  },
  { $id: 'Banner', description: 'Home-page banner (spec §2.6).' },
);
export interface Banner extends Static<typeof Banner> {}

/** Item of GET /book/hot-search (spec §2.7). */
export const HotSearchItem = Type.Object(
  {
    title: Type.String({ description: 'Title.' }),
    fileName: Type.String({ description: 'E-book file name.' }),
  },
  { $id: 'HotSearchItem', description: 'Hot-search list item (spec §2.7).' },
);
export interface HotSearchItem extends Static<typeof HotSearchItem> {}

const books = (description: string) => Type.Array(ref(BookSummary), { description });

/** GET /book/home/v2 data (spec §4.1, decisions.md §3). */
export const HomeData = Type.Object(
  {
    hotSearch: ref(HotSearch),
    shelf: books("The caller's 3 most recently shelved books."),
    recommend: books('3 recommended books, personalised when possible.'),
    freeRead: books('4 free-to-read books.'),
    hotBook: books('4 of the most viewed books of the last 30 days.'),
    category: Type.Array(ref(CategoryItem), { description: 'Every non-empty category.' }),
    banner: ref(Banner),
    shelfCount: Type.Integer({ minimum: 0, description: "Number of books on the caller's shelf." }),
  },
  { $id: 'HomeData', description: 'Home page data (spec §4.1).' },
);
export interface HomeData extends Static<typeof HomeData> {}

/** GET /book/home/v2 query (spec §4.1). */
export const HomeQuery = Type.Object(
  { openId: openIdParam() },
  { $id: 'HomeQuery', description: 'Home page query (spec §4.1).' },
);
export interface HomeQuery extends Static<typeof HomeQuery> {}
