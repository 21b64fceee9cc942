import { describe, expect, it } from 'vitest';
import { awardEmojiName } from './emoji.js';

describe('awardEmojiName', () => {
  it('reads a body that is only an emoji name, with one trailing blank at most', () => {
    expect(awardEmojiName(':thumbsup:')).toBe('thumbsup');
    expect(awardEmojiName(':tada: ')).toBe('tada');
    expect(awardEmojiName(':tada:\n')).toBe('tada');
  });

  it('normalises the +1 and -1 aliases', () => {
    expect(awardEmojiName(':+1:')).toBe('thumbsup');
    expect(awardEmojiName(':-1:')).toBe('thumbsdown');
  });

  it('leaves other bodies notes', () => {
    for (const body of [
      'nice :thumbsup:',
      ':thumbsup: nice',
      ':not_an_emoji:',
      'thumbsup',
      ':thumbsup:  ',
      '::',
    ])
      expect(awardEmojiName(body), body).toBeUndefined();
  });
});
