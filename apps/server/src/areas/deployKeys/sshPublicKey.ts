// Parses and validates an OpenSSH public key line (`ssh-ed25519 AAAA… comment`): the base64 blob is decoded
// and its wire format checked field by field, then handed to OpenSSL, so only keys that could really be used
// are accepted. Pure logic: no database, no Express.
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';

export const SSH_KEY_TYPES = [
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
] as const;

export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

export interface SshPublicKey {
  type: SshKeyType;
  /** The decoded key blob (SSH wire format). */
  blob: Buffer;
  comment: string;
  /** Size of the key in bits (the RSA modulus, the curve, or 256 for ed25519). */
  bits: number;
  /** `SHA256:` and the unpadded base64 of the blob's SHA-256, as `ssh-keygen -l` prints it. */
  fingerprintSha256: string;
  /** The key as stored and returned: type, canonical base64 and the comment, single-spaced. */
  normalized: string;
}

export type SshKeyParseResult = { ok: true; key: SshPublicKey } | { ok: false; reason: string };

export const MIN_RSA_BITS = 1024;
/** OpenSSH refuses RSA moduli above 16384 bits; so do we. */
export const MAX_RSA_BITS = 16384;
/** Far more than any supported key needs; guards against pasting megabytes into the parser. */
const MAX_KEY_LINE_LENGTH = 16 * 1024;

const CURVES = {
  'ecdsa-sha2-nistp256': { name: 'nistp256', jwkCurve: 'P-256', coordinateBytes: 32, bits: 256 },
  'ecdsa-sha2-nistp384': { name: 'nistp384', jwkCurve: 'P-384', coordinateBytes: 48, bits: 384 },
  'ecdsa-sha2-nistp521': { name: 'nistp521', jwkCurve: 'P-521', coordinateBytes: 66, bits: 521 },
} as const;

class InvalidKey extends Error {}

/** Reads the length-prefixed fields of an SSH wire-format blob (RFC 4251 `string` and `mpint`). */
class WireReader {
  private offset = 0;

  constructor(private readonly blob: Buffer) {}

  string(what: string): Buffer {
    if (this.offset + 4 > this.blob.length) throw new InvalidKey(`the key blob ends before its ${what}`);
    const length = this.blob.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (start + length > this.blob.length) throw new InvalidKey(`the key blob ends inside its ${what}`);
    this.offset = start + length;
    return this.blob.subarray(start, start + length);
  }

  /** A positive multiple-precision integer, as its magnitude without leading zero bytes. */
  positiveMpint(what: string): Buffer {
    const bytes = this.string(what);
    if (bytes.length > 0 && (bytes[0] ?? 0) & 0x80) throw new InvalidKey(`the ${what} is negative`);
    let start = 0;
    while (start < bytes.length && bytes[start] === 0) start += 1;
    if (start === bytes.length) throw new InvalidKey(`the ${what} is zero`);
    return bytes.subarray(start);
  }

  end(): void {
    if (this.offset !== this.blob.length) throw new InvalidKey('the key blob has trailing data');
  }
}

function bitLength(magnitude: Buffer): number {
  const top = magnitude[0] ?? 0;
  return (magnitude.length - 1) * 8 + (32 - Math.clz32(top));
}

/** Throws when OpenSSL does not accept the key material (a point off the curve, a malformed modulus). */
function importWithOpenSsl(jwk: JsonWebKey): void {
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new InvalidKey('the key material is not a valid public key');
  }
}

function checkRsa(reader: WireReader): number {
  const exponent = reader.positiveMpint('RSA exponent');
  const modulus = reader.positiveMpint('RSA modulus');
  reader.end();
  const bits = bitLength(modulus);
  if (bits < MIN_RSA_BITS)
    throw new InvalidKey(`RSA keys must have at least ${MIN_RSA_BITS} bits (this one has ${bits})`);
  if (bits > MAX_RSA_BITS)
    throw new InvalidKey(`RSA keys must have at most ${MAX_RSA_BITS} bits (this one has ${bits})`);
  if (((modulus[modulus.length - 1] ?? 0) & 1) === 0) throw new InvalidKey('the RSA modulus is even');
  if (((exponent[exponent.length - 1] ?? 0) & 1) === 0 || (exponent.length === 1 && exponent[0] === 1)) {
    throw new InvalidKey('the RSA exponent must be odd and greater than 1');
  }
  importWithOpenSsl({ kty: 'RSA', n: modulus.toString('base64url'), e: exponent.toString('base64url') });
  return bits;
}

function checkEd25519(reader: WireReader): number {
  const key = reader.string('ed25519 key');
  reader.end();
  if (key.length !== 32) throw new InvalidKey(`an ed25519 key has 32 bytes (this one has ${key.length})`);
  importWithOpenSsl({ kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') });
  return 256;
}

function checkEcdsa(reader: WireReader, type: keyof typeof CURVES): number {
  const curve = CURVES[type];
  const name = reader.string('curve name').toString('latin1');
  if (name !== curve.name)
    throw new InvalidKey(`the curve ${JSON.stringify(name)} does not match the key type ${type}`);
  const point = reader.string('public point');
  reader.end();
  if (point.length !== 1 + 2 * curve.coordinateBytes || point[0] !== 0x04) {
    throw new InvalidKey(`the public point is not an uncompressed ${curve.name} point`);
  }
  const x = point.subarray(1, 1 + curve.coordinateBytes);
  const y = point.subarray(1 + curve.coordinateBytes);
  importWithOpenSsl({
    kty: 'EC',
    crv: curve.jwkCurve,
    x: x.toString('base64url'),
    y: y.toString('base64url'),
  });
  return curve.bits;
}

function isKeyType(value: string): value is SshKeyType {
  return (SSH_KEY_TYPES as readonly string[]).includes(value);
}

function parseOrThrow(text: string): SshPublicKey {
  const line = text.trim();
  if (line.length === 0) throw new InvalidKey('the key is empty');
  // Code points, as the spec's maxLength counts; a UTF-16 length above twice the limit is over it anyway.
  if (line.length > 2 * MAX_KEY_LINE_LENGTH || [...line].length > MAX_KEY_LINE_LENGTH)
    throw new InvalidKey('the key is too long');
  if (/[\r\n]/.test(line)) throw new InvalidKey('the key must be a single line');
  const [type = '', encoded = '', ...commentWords] = line.split(/\s+/);
  if (!isKeyType(type)) throw new InvalidKey(`the key type must be one of ${SSH_KEY_TYPES.join(', ')}`);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new InvalidKey('the key data is not base64');
  const blob = Buffer.from(encoded, 'base64');
  // Node decodes sloppy base64 leniently; a canonical round trip proves every character was key data.
  if (blob.toString('base64') !== encoded) throw new InvalidKey('the key data is not canonical base64');

  const reader = new WireReader(blob);
  const innerType = reader.string('key type').toString('latin1');
  if (innerType !== type)
    throw new InvalidKey(`the key data is of type ${JSON.stringify(innerType)}, not ${type}`);
  const bits =
    type === 'ssh-rsa'
      ? checkRsa(reader)
      : type === 'ssh-ed25519'
        ? checkEd25519(reader)
        : checkEcdsa(reader, type);

  const comment = commentWords.join(' ');
  const fingerprintSha256 = sha256Fingerprint(blob);
  return {
    type,
    blob,
    comment,
    bits,
    fingerprintSha256,
    normalized: comment ? `${type} ${encoded} ${comment}` : `${type} ${encoded}`,
  };
}

/** Parses an OpenSSH public key line; the reason of a refusal is meant for the API's error message. */
export function parseSshPublicKey(text: string): SshKeyParseResult {
  try {
    return { ok: true, key: parseOrThrow(text) };
  } catch (error) {
    if (error instanceof InvalidKey) return { ok: false, reason: error.message };
    throw error;
  }
}

/** OpenSSH's SHA-256 fingerprint of a key blob: `SHA256:` and the unpadded base64 digest. */
export function sha256Fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** OpenSSH's MD5 fingerprint of a key blob (GitLab's `fingerprint`): the digest's bytes in hex, colon-separated. */
export function md5Fingerprint(blob: Buffer): string {
  return (createHash('md5').update(blob).digest('hex').match(/../g) ?? []).join(':');
}

/** The MD5 fingerprint of a stored key line (`type base64 comment`), which was checked when it was added. */
export function md5FingerprintOfLine(line: string): string {
  return md5Fingerprint(Buffer.from(line.split(' ')[1] ?? '', 'base64'));
}
