import { describe, expect, it } from 'vitest';
import { mapProvinceName, placeProvinces } from './province-names';

describe('province names of registration profiles on the China map', () => {
  it('finds the map name from Chinese with or without a suffix, and from pinyin or English', () => {
    expect(mapProvinceName('广东')).toBe('广东');
    expect(mapProvinceName('广东省')).toBe('广东');
    expect(mapProvinceName('Guangdong')).toBe('广东');
    expect(mapProvinceName(' guangdong ')).toBe('广东');
    expect(mapProvinceName('北京市')).toBe('北京');
    expect(mapProvinceName('广西壮族自治区')).toBe('广西');
    expect(mapProvinceName('新疆维吾尔自治区')).toBe('新疆');
    expect(mapProvinceName('Inner Mongolia')).toBe('内蒙古');
    expect(mapProvinceName('香港特别行政区')).toBe('香港');
    expect(mapProvinceName('Macao')).toBe('澳门');
    // two provinces one letter apart
    expect(mapProvinceName('Shanxi')).toBe('山西');
    expect(mapProvinceName('Shaanxi')).toBe('陕西');
  });

  it('knows no other name', () => {
    expect(mapProvinceName('California')).toBeUndefined();
    expect(mapProvinceName('')).toBeUndefined();
    expect(mapProvinceName('省')).toBeUndefined();
    expect(mapProvinceName('<img src=x onerror=alert(1)>')).toBeUndefined();
  });

  it('merges spellings of one province and keeps the rest apart, not lost', () => {
    expect(
      placeProvinces([
        { name: '广东省', value: 2 },
        { name: 'Guangdong', value: 3 },
        { name: 'Bavaria', value: 1 },
        { name: '浙江', value: 4 },
      ]),
    ).toEqual({
      placed: [
        { name: '广东', value: 5 },
        { name: '浙江', value: 4 },
      ],
      unplaced: [{ name: 'Bavaria', value: 1 }],
    });
  });
});
