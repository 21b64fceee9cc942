import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/http/errors.js';
import { checkImage, imageUrl, MAX_IMAGE_BYTES, sanitizeImageName, sniffContentType } from './images.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const ICO = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]);

function file(originalname: string, buffer: Buffer) {
  return { originalname, buffer, size: buffer.length };
}

function refusal(call: () => void): unknown {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).body;
  }
  throw new Error('accepted');
}

describe('sniffContentType', () => {
  it('reads the type from the bytes, not the name', () => {
    expect(sniffContentType(PNG)).toBe('image/png');
    expect(sniffContentType(ICO)).toBe('image/vnd.microsoft.icon');
    expect(sniffContentType(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('hello\n'))).toBe('text/plain');
    expect(sniffContentType(Buffer.from([1, 0, 2, 0]))).toBe('application/octet-stream');
    // An ICO header with no image in it is no icon.
    expect(sniffContentType(Buffer.from([0, 0, 1, 0, 0, 0]))).toBe('application/octet-stream');
  });
});

describe('checkImage', () => {
  it('takes a favicon that is an .ico or .png file holding an ICO or PNG image', () => {
    expect(() => checkImage('favicon', file('favicon.ico', ICO))).not.toThrow();
    expect(() => checkImage('favicon', file('Fav.PNG', PNG))).not.toThrow();
    // The extension and the content are checked apart: an ICO named .png passes both lists, as in GitLab.
    expect(() => checkImage('favicon', file('favicon.png', ICO))).not.toThrow();
  });

  it('refuses another favicon extension or content with FaviconUploader words, naming the field', () => {
    expect(refusal(() => checkImage('favicon', file('favicon.gif', PNG)))).toEqual({
      message: { favicon: ['You are not allowed to upload "gif" files, allowed types: png, ico'] },
    });
    expect(refusal(() => checkImage('favicon', file('favicon.png', Buffer.from('not an image'))))).toEqual({
      message: {
        favicon: [
          'You are not allowed to upload text/plain files, allowed types: image/png, image/vnd.microsoft.icon',
        ],
      },
    });
  });

  it('refuses any image over 1 MB and takes one of exactly 1 MB', () => {
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES + 1 - PNG.length)]);
    expect(refusal(() => checkImage('logo', file('logo.png', big)))).toEqual({
      message: { logo: ['is too big (should be at most 1 MB)'] },
    });
    expect(() => checkImage('header_logo', file('h.png', big.subarray(0, MAX_IMAGE_BYTES)))).not.toThrow();
  });
});

describe('names and URLs', () => {
  it("keeps a safe last path segment of the client's name", () => {
    expect(sanitizeImageName('../../etc/my logo (1).png')).toBe('my_logo__1_.png');
    expect(sanitizeImageName('C:\\pics\\logo.png')).toBe('logo.png');
    expect(sanitizeImageName('..')).toBe('_..');
    expect(sanitizeImageName('')).toBe('unnamed');
  });

  it("answers GitLab's path of an appearance upload", () => {
    expect(imageUrl('favicon', 'favicon.ico')).toBe('/uploads/-/system/appearance/favicon/1/favicon.ico');
  });
});
