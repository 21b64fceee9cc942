// A minimal reader and writer of gzip-compressed tar files (regular files only), so the export/import tests
// can look inside archives and craft broken ones without a tar dependency.
import { gunzipSync, gzipSync } from 'node:zlib';

const BLOCK = 512;

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

/** The regular files of a .tar.gz, by name (a leading `./` removed). Throws when it is not a gzip tar. */
export function readTarGz(archive: Uint8Array): Map<string, Buffer> {
  const tar = gunzipSync(archive);
  const files = new Map<string, Buffer>();
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (field(header, 257, 6) !== 'ustar') throw new Error(`not a ustar header at offset ${offset}`);
    const prefix = field(header, 345, 155);
    const name = (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100)).replace(/^\.\//, '');
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === '0' || type === '\0')
      files.set(name, Buffer.from(tar.subarray(offset + BLOCK, offset + BLOCK + size)));
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** A .tar.gz holding `files` (names of at most 100 bytes) as regular files. */
export function writeTarGz(files: Map<string, Buffer | string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, content] of files) {
    const data = Buffer.from(content);
    const header = Buffer.alloc(BLOCK);
    header.write(name, 0, 100, 'utf8');
    header.write(octal(0o644, 8), 100, 'ascii');
    header.write(octal(0, 8), 108, 'ascii');
    header.write(octal(0, 8), 116, 'ascii');
    header.write(octal(data.length, 12), 124, 'ascii');
    header.write(octal(Math.floor(Date.now() / 1000), 12), 136, 'ascii');
    header.write('        ', 148, 'ascii');
    header.write('0', 156, 'ascii');
    header.write('ustar\0', 257, 'ascii');
    header.write('00', 263, 'ascii');
    const checksum = header.reduce((sum, byte) => sum + byte, 0);
    header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    blocks.push(header, data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
  }
  blocks.push(Buffer.alloc(2 * BLOCK));
  return gzipSync(Buffer.concat(blocks));
}
