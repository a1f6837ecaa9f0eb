/** Deterministic generators of a realistic catalogue (Latin and CJK metadata) and its activity. */

/** mulberry32: small, fast, seedable; every dataset of a given size is the same from run to run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LATIN_WORDS = (
  'river night glass mountain letter garden winter summer silent city shadow light ocean house ' +
  'stone forest empire machine theory history window bridge dream memory island journey secret ' +
  'market money data algorithm network quantum cell planet climate law justice mind logic number ' +
  'statistics power war peace road iron silver golden red blue hidden last first lost little great ' +
  'north south wild quiet broken distant human modern ancient practical introduction principles'
).split(' ');
const LATIN_JOIN = ['of', 'and', 'in', 'the', 'for', 'on'];
const CJK_WORDS = (
  '山 海 风 月 花 雪 红楼 梦 春 秋 夜 城 河 江湖 故事 历史 经济 数学 物理 哲学 心理 世界 时间 ' +
  '人生 文学 科学 算法 数据 网络 宇宙 星空 长安 西游 三国 水浒 明朝 大唐 草原 少年 女人 ' +
  '月光 雨 云 白 黑 金 银 东京 物語 の 旅 夏 冬 桜 猫 心 森 海辺 宇宙論 入門 原理'
).split(' ');
const SURNAMES_LATIN = (
  'Smith Johnson Brown Taylor Miller Wilson Moore Anderson Thomas Jackson White Harris Martin ' +
  'Thompson Garcia Martinez Robinson Clark Lewis Walker Hall Young King Wright Scott Green Baker ' +
  'Adams Nelson Hill Campbell Mitchell Roberts Carter Phillips Evans Turner Torres Parker Collins'
).split(' ');
const GIVEN_LATIN = (
  'James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard ' +
  'Susan Joseph Jessica Charles Sarah Thomas Karen Daniel Nancy Matthew Lisa Anthony Betty Mark'
).split(' ');
const SURNAMES_CJK =
  '王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗 郑 梁 谢 宋 唐 田中 佐藤 鈴木 高橋 山本'.split(
    ' ',
  );
const GIVEN_CJK =
  '伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀英 华 慧 建国 小龙 春树 健 美咲 翔太 由美'.split(' ');
const PRESS_LATIN =
  'Penguin Harper Oxford Cambridge Springer Random Norton Vintage Beacon Dover Wiley Pearson'.split(' ');
const PRESS_CJK = '人民 商务 中华 三联 上海译文 作家 新星 岩波 講談社 新潮社 北京大学 清华大学'.split(' ');
export const PROVINCES = [
  '广东',
  '北京',
  '上海',
  '浙江',
  '江苏',
  '四川',
  '湖北',
  '山东',
  'California',
  'Tokyo',
];
export const CITIES = [
  '广州',
  '北京',
  '上海',
  '杭州',
  '南京',
  '成都',
  '武汉',
  '青岛',
  'Los Angeles',
  'Tokyo',
];

const pick = <T>(r: () => number, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;

export interface GenBook {
  file_name: string;
  title: string;
  author: string;
  publisher: string;
  language: string;
  category_id: number;
  cover_path: string;
  root_file: string;
}

/** Authors and publishers are pools scaled with the catalogue, so facets have realistic spreads. */
export function makeBookFactory(n: number, categoryCount: number, seed = 42) {
  const r = rng(seed);
  const authorCount = Math.max(50, Math.floor(n / 5));
  const pressCount = Math.max(20, Math.floor(n / 200));
  const authors = Array.from({ length: authorCount }, (_, i) =>
    i % 2
      ? `${pick(r, SURNAMES_CJK)}${pick(r, GIVEN_CJK)}`
      : `${pick(r, GIVEN_LATIN)} ${pick(r, SURNAMES_LATIN)}${i > 1000 ? ` ${i.toString(36)}` : ''}`,
  );
  const presses = Array.from({ length: pressCount }, (_, i) =>
    i % 2
      ? `${pick(r, PRESS_CJK)}出版社${i > 24 ? i : ''}`
      : `${pick(r, PRESS_LATIN)} ${i > 24 ? `${i} ` : ''}Press`,
  );
  return (i: number): GenBook => {
    const cjk = r() < 0.45;
    const len = 1 + Math.floor(r() * 3);
    const title = cjk
      ? Array.from({ length: len + 1 }, () => pick(r, CJK_WORDS)).join('')
      : Array.from({ length: len + 1 }, (_, k) =>
          k === 0 ? capital(pick(r, LATIN_WORDS)) : `${pick(r, LATIN_JOIN)} ${pick(r, LATIN_WORDS)}`,
        ).join(' ');
    const fileName = `b-${(i + 1).toString(16).padStart(8, '0')}${Math.floor(r() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}`;
    return {
      file_name: fileName,
      title: `${title}${r() < 0.3 ? ` ${1 + Math.floor(r() * 12)}` : ''}`,
      author: authors[Math.floor(r() ** 1.5 * authors.length)]!,
      publisher: presses[Math.floor(r() ** 2 * presses.length)]!,
      language: cjk ? (r() < 0.8 ? 'zh' : 'ja') : 'en',
      category_id: 1 + Math.floor(r() ** 1.3 * categoryCount),
      cover_path: r() < 0.75 ? `img/${fileName}.jpg` : '',
      root_file: r() < 0.5 ? 'OEBPS/content.opf' : 'OPS/package.opf',
    };
  };
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function userNick(r: () => number, i: number): string {
  return r() < 0.5 ? `${pick(r, SURNAMES_CJK)}${pick(r, GIVEN_CJK)}` : `${pick(r, GIVEN_LATIN)}${i % 1000}`;
}

/**
 * A skewed book id (1..n): the k-th hottest rank follows a power law, mapped through a fixed
 * permutation so hot books are spread over the id range (not just the oldest ones).
 */
export function skewedBook(r: () => number, n: number, power = 3): number {
  const rank = Math.min(n - 1, Math.floor(r() ** power * n));
  return 1 + ((rank * 1_000_003) % n);
}

export { pick };
