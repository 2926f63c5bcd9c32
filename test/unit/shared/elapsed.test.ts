import { describe, expect, it } from 'vitest';
import { formatElapsed } from '../../../shared/elapsed.js';

describe('elapsed time (one definition for the beacon text and the UI chip)', () => {
  it.each<[number, 'en' | 'zh-CN', string]>([
    [0, 'en', '0s'],
    [-5, 'en', '0s'],
    [45_999, 'en', '45s'],
    [60_000, 'en', '1m'],
    [90_000, 'en', '1m 30s'],
    [3_600_000, 'en', '1h'],
    [3_725_000, 'en', '1h 2m'],
    [3_900_000, 'en', '1h 5m'],
    [45_000, 'zh-CN', '45秒'],
    [90_000, 'zh-CN', '1分30秒'],
    [120_000, 'zh-CN', '2分'],
    [3_725_000, 'zh-CN', '1小时2分'],
  ])('%d ms in %s is %s', (ms, lang, text) => {
    expect(formatElapsed(ms, lang)).toBe(text);
  });
});
