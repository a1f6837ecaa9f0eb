import { describe, expect, it } from 'vitest';
import { fileSize } from './file-size';
import { imageUrl } from './safe-url';

describe('image addresses the console loads', () => {
  it('are http and https only', () => {
    expect(imageUrl('http://127.0.0.1:3000/res/img/b_1.png')).toBe('http://127.0.0.1:3000/res/img/b_1.png');
    expect(imageUrl('https://cdn.example.com/a.jpg')).toBe('https://cdn.example.com/a.jpg');
    expect(imageUrl('javascript:alert(1)')).toBeUndefined();
    expect(imageUrl('JaVaScRiPt:alert(1)')).toBeUndefined();
    expect(imageUrl('data:image/svg+xml,<svg onload=alert(1)>')).toBeUndefined();
    expect(imageUrl('img/b_1.png')).toBeUndefined();
    expect(imageUrl('')).toBeUndefined();
    expect(imageUrl(undefined)).toBeUndefined();
  });
});

describe('file sizes for people', () => {
  it('in B, KB, MB', () => {
    expect(fileSize(512)).toBe('512 B');
    expect(fileSize(1536)).toBe('1.5 KB');
    expect(fileSize(150 * 1024 * 1024)).toBe('150 MB');
  });
});
