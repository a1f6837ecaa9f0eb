import type {
  AdminBook,
  BookDetail,
  BookSummary,
  ContentsEntry,
  ContentsTree,
  Reader,
} from '../src/index.js';

export const bookSummary: BookSummary = {
  id: 1,
  fileName: '2018_Book_AgileProcessesInSoftwareEngine',
  cover: 'http://localhost:3000/res/img/2018_Book_AgileProcessesInSoftwareEngine.jpeg',
  title: 'Agile Processes in Software Engineering and Extreme Programming',
  author: 'Juan Garbajosa',
  publisher: 'Springer International Publishing',
  bookId: '2018_Book_AgileProcessesInSoftwareEngine',
  category: 1,
  categoryText: 'ComputerScience',
  language: 'en',
  rootFile: 'OEBPS/package.opf',
};

export const reader: Reader = {
  avatarUrl: 'https://example.com/avatar.png',
  nickName: '米老鼠',
  create_dt: 1_546_300_800_000,
};

export const bookDetail: BookDetail = {
  ...bookSummary,
  selected: false,
  private: false,
  cache: false,
  haveRead: 0,
  opf: 'http://localhost:3000/res/unzip/2018_Book_AgileProcessesInSoftwareEngine/OEBPS/package.opf',
  readers: [reader],
  readerNum: 1,
  rank: 4,
  rankNum: 3,
  rankAvg: '3.67',
};

export const entry = (id: string, level: number, pid: string, order: number): ContentsEntry => ({
  id,
  href: `Text/${id}.xhtml`,
  label: `Chapter ${id}`,
  level,
  pid,
  navId: id,
  order,
  text: `http://localhost:3000/res/unzip/book/OEBPS/Text/${id}.xhtml`,
});

/** Three levels: part > chapter > section. */
export const contentsTree: ContentsTree = [
  {
    ...entry('p1', 0, '', 1),
    children: [
      {
        ...entry('c1', 1, 'p1', 2),
        children: [{ ...entry('s1', 2, 'c1', 3), children: [] }],
      },
    ],
  },
];

export const contents: ContentsEntry[] = [
  entry('p1', 0, '', 1),
  entry('c1', 1, 'p1', 2),
  entry('s1', 2, 'c1', 3),
];

export const adminBook: AdminBook = {
  id: '42',
  fileName: bookSummary.fileName,
  title: bookSummary.title,
  author: bookSummary.author,
  publisher: bookSummary.publisher,
  language: 'en',
  category: 1,
  categoryText: 'ComputerScience',
  cover: bookSummary.cover,
  rootFile: bookSummary.rootFile,
};

/** The store-relative paths GET /book/get and upload add (decisions.md §4). */
export const storedFiles = {
  filePath: `epub/${adminBook.fileName}.epub`,
  unzipPath: `unzip/${adminBook.fileName}`,
  coverPath: `img/${adminBook.fileName}.jpg`,
  originalName: 'book.epub',
};
