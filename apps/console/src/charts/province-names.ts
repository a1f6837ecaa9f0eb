/**
 * The map's province names (ECharts' China map, short Chinese names) and the other names registration
 * profiles carry for them: WeChat sends either Chinese or pinyin/English, with or without 省/市/自治区.
 */
const PROVINCES: ReadonlyArray<readonly [mapName: string, ...others: string[]]> = [
  ['北京', 'Beijing', 'Peking'],
  ['天津', 'Tianjin'],
  ['河北', 'Hebei'],
  ['山西', 'Shanxi'],
  ['内蒙古', 'Inner Mongolia', 'Neimenggu', 'Nei Mongol'],
  ['辽宁', 'Liaoning'],
  ['吉林', 'Jilin'],
  ['黑龙江', 'Heilongjiang'],
  ['上海', 'Shanghai'],
  ['江苏', 'Jiangsu'],
  ['浙江', 'Zhejiang'],
  ['安徽', 'Anhui'],
  ['福建', 'Fujian'],
  ['江西', 'Jiangxi'],
  ['山东', 'Shandong'],
  ['河南', 'Henan'],
  ['湖北', 'Hubei'],
  ['湖南', 'Hunan'],
  ['广东', 'Guangdong'],
  ['广西', 'Guangxi'],
  ['海南', 'Hainan'],
  ['重庆', 'Chongqing'],
  ['四川', 'Sichuan'],
  ['贵州', 'Guizhou'],
  ['云南', 'Yunnan'],
  ['西藏', 'Tibet', 'Xizang'],
  ['陕西', 'Shaanxi'],
  ['甘肃', 'Gansu'],
  ['青海', 'Qinghai'],
  ['宁夏', 'Ningxia'],
  ['新疆', 'Xinjiang'],
  ['台湾', 'Taiwan'],
  ['香港', 'Hong Kong', 'Hongkong', 'Xianggang'],
  ['澳门', 'Macau', 'Macao', 'Aomen'],
];

/** Longest first, so 广西壮族自治区 loses 壮族自治区, not only 自治区. */
const SUFFIXES = ['维吾尔自治区', '壮族自治区', '回族自治区', '特别行政区', '自治区', '省', '市'];

const key = (name: string) => name.toLowerCase().replace(/[\s'’-]/g, '');

const BY_NAME = new Map<string, string>();
for (const [mapName, ...others] of PROVINCES) {
  for (const name of [mapName, ...others]) BY_NAME.set(key(name), mapName);
}

/** The map's name of a province as a profile spells it, or undefined when it is not one of China's. */
export function mapProvinceName(name: string): string | undefined {
  const trimmed = name.trim();
  const direct = BY_NAME.get(key(trimmed));
  if (direct) return direct;
  for (const suffix of SUFFIXES) {
    if (trimmed.endsWith(suffix) && trimmed.length > suffix.length) {
      const found = BY_NAME.get(key(trimmed.slice(0, -suffix.length)));
      if (found) return found;
    }
  }
  return undefined;
}

export interface Placed {
  /** users per map province, names merged ('广东省' and 'Guangdong' count together) */
  placed: { name: string; value: number }[];
  /** regions the map has no shape for, kept to be listed beside it */
  unplaced: { name: string; value: number }[];
}

export function placeProvinces(items: readonly { name: string; value: number }[]): Placed {
  const totals = new Map<string, number>();
  const unplaced: { name: string; value: number }[] = [];
  for (const item of items) {
    const mapName = mapProvinceName(item.name);
    if (mapName) totals.set(mapName, (totals.get(mapName) ?? 0) + item.value);
    else unplaced.push({ name: item.name, value: item.value });
  }
  return { placed: [...totals].map(([name, value]) => ({ name, value })), unplaced };
}
