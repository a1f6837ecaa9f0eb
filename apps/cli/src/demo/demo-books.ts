/**
 * Generated demo editions of public-domain works (titles, authors and chapter titles only; the chapter
 * text is a short note). They sit beside the real EPUBs of packages/epub/fixtures/real so the first
 * start shows every category of the home page filled, in Latin, Chinese and Japanese metadata.
 */
export interface DemoBook {
  title: string;
  author: string;
  publisher: string;
  language: string;
  subject: string;
  chapters: string[];
}

const PD = 'Public Domain Editions';
const ch = (n: number, word = 'Chapter') => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`);

export const DEMO_BOOKS: DemoBook[] = [
  {
    title: 'Pride and Prejudice',
    author: 'Jane Austen',
    publisher: PD,
    language: 'en',
    subject: 'Literature',
    chapters: ch(6),
  },
  {
    title: 'Moby-Dick; or, The Whale',
    author: 'Herman Melville',
    publisher: PD,
    language: 'en',
    subject: 'Literature',
    chapters: ['Loomings', 'The Carpet-Bag', 'The Spouter-Inn', 'The Counterpane'],
  },
  {
    title: 'Frankenstein',
    author: 'Mary Shelley',
    publisher: PD,
    language: 'en',
    subject: 'Literature',
    chapters: ['Letter 1', 'Letter 2', ...ch(4)],
  },
  {
    title: 'The Time Machine',
    author: 'H. G. Wells',
    publisher: PD,
    language: 'en',
    subject: 'Literature',
    chapters: ch(5),
  },
  {
    title: 'On the Origin of Species',
    author: 'Charles Darwin',
    publisher: PD,
    language: 'en',
    subject: 'LifeSciences',
    chapters: [
      'Variation under Domestication',
      'Variation under Nature',
      'Struggle for Existence',
      'Natural Selection',
    ],
  },
  {
    title: 'Relativity: The Special and General Theory',
    author: 'Albert Einstein',
    publisher: PD,
    language: 'en',
    subject: 'Physics',
    chapters: [
      'Physical Meaning of Geometrical Propositions',
      'The System of Co-ordinates',
      'Space and Time in Classical Mechanics',
    ],
  },
  {
    title: 'The Republic',
    author: 'Plato',
    publisher: PD,
    language: 'en',
    subject: 'Philosophy',
    chapters: ch(5, 'Book'),
  },
  {
    title: 'On Liberty',
    author: 'John Stuart Mill',
    publisher: PD,
    language: 'en',
    subject: 'Philosophy',
    chapters: ['Introductory', 'Of the Liberty of Thought and Discussion', 'Of Individuality'],
  },
  {
    title: 'The Wealth of Nations',
    author: 'Adam Smith',
    publisher: PD,
    language: 'en',
    subject: 'Economics',
    chapters: [
      'Of the Division of Labour',
      'Of the Principle which gives Occasion to the Division of Labour',
    ],
  },
  {
    title: 'The Principles of Psychology',
    author: 'William James',
    publisher: PD,
    language: 'en',
    subject: 'Psychology',
    chapters: ['The Scope of Psychology', 'The Functions of the Brain', 'Habit'],
  },
  {
    title: "Euclid's Elements",
    author: 'Euclid',
    publisher: PD,
    language: 'en',
    subject: 'Mathematics',
    chapters: ch(6, 'Book'),
  },
  {
    title: 'Democracy in America',
    author: 'Alexis de Tocqueville',
    publisher: PD,
    language: 'en',
    subject: 'PoliticalScienceAndInternationalRelations',
    chapters: ch(4),
  },
  {
    title: 'Notes on Nursing',
    author: 'Florence Nightingale',
    publisher: PD,
    language: 'en',
    subject: 'MedicineAndPublicHealth',
    chapters: ['Ventilation and Warming', 'Health of Houses', 'Petty Management'],
  },
  {
    title: 'Democracy and Education',
    author: 'John Dewey',
    publisher: PD,
    language: 'en',
    subject: 'Education',
    chapters: ['Education as a Necessity of Life', 'Education as a Social Function'],
  },
  {
    title: '红楼梦',
    author: '曹雪芹',
    publisher: '公版书局',
    language: 'zh',
    subject: 'Literature',
    chapters: ['第一回 甄士隐梦幻识通灵', '第二回 贾夫人仙逝扬州城', '第三回 托内兄如海荐西宾'],
  },
  {
    title: '西游记',
    author: '吴承恩',
    publisher: '公版书局',
    language: 'zh',
    subject: 'Literature',
    chapters: ['第一回 灵根育孕源流出', '第二回 悟彻菩提真妙理', '第三回 四海千山皆拱伏'],
  },
  {
    title: '三国演义',
    author: '罗贯中',
    publisher: '公版书局',
    language: 'zh',
    subject: 'History',
    chapters: ['第一回 宴桃园豪杰三结义', '第二回 张翼德怒鞭督邮'],
  },
  {
    title: '水浒传',
    author: '施耐庵',
    publisher: '公版书局',
    language: 'zh',
    subject: 'Literature',
    chapters: ['第一回 张天师祈禳瘟疫', '第二回 王教头私走延安府'],
  },
  {
    title: '论语',
    author: '孔子',
    publisher: '公版书局',
    language: 'zh',
    subject: 'Philosophy',
    chapters: ['学而第一', '为政第二', '八佾第三'],
  },
  {
    title: '道德经',
    author: '老子',
    publisher: '公版书局',
    language: 'zh',
    subject: 'Philosophy',
    chapters: ['第一章', '第二章', '第三章'],
  },
  {
    title: '孙子兵法',
    author: '孙武',
    publisher: '公版书局',
    language: 'zh',
    subject: 'History',
    chapters: ['始计篇', '作战篇', '谋攻篇'],
  },
  {
    title: '史记',
    author: '司马迁',
    publisher: '公版书局',
    language: 'zh',
    subject: 'History',
    chapters: ['五帝本纪', '夏本纪', '殷本纪'],
  },
  {
    title: '吾輩は猫である',
    author: '夏目漱石',
    publisher: '青空文庫',
    language: 'ja',
    subject: 'Literature',
    chapters: ['一', '二', '三'],
  },
  {
    title: '羅生門',
    author: '芥川龍之介',
    publisher: '青空文庫',
    language: 'ja',
    subject: 'Literature',
    chapters: ['羅生門'],
  },
];
