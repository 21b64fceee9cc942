import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSshPublicKey } from './sshPublicKey.js';

const execFileAsync = promisify(execFile);

/** SSH wire format helpers, to build keys (valid and broken) byte by byte. */
function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function sshMpint(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start += 1;
  const trimmed = magnitude.subarray(start);
  return sshString((trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function keyLine(type: string, ...fields: Buffer[]): string {
  return `${type} ${Buffer.concat(fields).toString('base64')} test@example.com`;
}

function rsaKeyFromNode(modulusLength: number): { n: Buffer; e: Buffer } {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength });
  const jwk = publicKey.export({ format: 'jwk' });
  return { n: Buffer.from(jwk.n ?? '', 'base64url'), e: Buffer.from(jwk.e ?? '', 'base64url') };
}

function ed25519FromNode(): Buffer {
  const { publicKey } = generateKeyPairSync('ed25519');
  return Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
}

let dir: string;

async function sshKeygen(name: string, ...args: string[]): Promise<{ line: string; fingerprint: string }> {
  const file = join(dir, name);
  await execFileAsync('ssh-keygen', ['-q', ...args, '-N', '', '-C', `${name}@example.com`, '-f', file]);
  const line = (await readFile(`${file}.pub`, 'utf8')).trim();
  const { stdout } = await execFileAsync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`]);
  const fingerprint = stdout.split(' ')[1] ?? '';
  return { line, fingerprint };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ssh-key-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('parseSshPublicKey accepts real keys', () => {
  const cases: [string, string[], string, number][] = [
    ['rsa2048', ['-t', 'rsa', '-b', '2048'], 'ssh-rsa', 2048],
    ['rsa1024', ['-t', 'rsa', '-b', '1024'], 'ssh-rsa', 1024],
    ['ed25519', ['-t', 'ed25519'], 'ssh-ed25519', 256],
    ['ecdsa256', ['-t', 'ecdsa', '-b', '256'], 'ecdsa-sha2-nistp256', 256],
    ['ecdsa384', ['-t', 'ecdsa', '-b', '384'], 'ecdsa-sha2-nistp384', 384],
    ['ecdsa521', ['-t', 'ecdsa', '-b', '521'], 'ecdsa-sha2-nistp521', 521],
  ];
  for (const [name, args, type, bits] of cases) {
    it(`parses a ${name} key from ssh-keygen, with ssh-keygen's SHA256 fingerprint`, async () => {
      const { line, fingerprint } = await sshKeygen(name, ...args);
      const result = parseSshPublicKey(line);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.key.type).toBe(type);
      expect(result.key.bits).toBe(bits);
      expect(result.key.comment).toBe(`${name}@example.com`);
      expect(result.key.fingerprintSha256).toBe(fingerprint);
      expect(result.key.normalized).toBe(line);
    });
  }

  it('accepts keys built from node crypto, surrounding whitespace and no comment', () => {
    const ed = keyLine('ssh-ed25519', sshString('ssh-ed25519'), sshString(ed25519FromNode())).replace(
      ' test@example.com',
      '',
    );
    const result = parseSshPublicKey(`  ${ed.replace(' ', '   ')}\n`);
    expect(result.ok && result.key.normalized).toBe(ed);
    const { n, e } = rsaKeyFromNode(3072);
    const rsa = parseSshPublicKey(keyLine('ssh-rsa', sshString('ssh-rsa'), sshMpint(e), sshMpint(n)));
    expect(rsa.ok && rsa.key.bits).toBe(3072);
  });

  it('gives the same fingerprint to the same blob whatever the comment', () => {
    const blob = Buffer.concat([sshString('ssh-ed25519'), sshString(ed25519FromNode())]).toString('base64');
    const a = parseSshPublicKey(`ssh-ed25519 ${blob} one`);
    const b = parseSshPublicKey(`ssh-ed25519 ${blob} two words`);
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) {
      expect(a.key.fingerprintSha256).toBe(b.key.fingerprintSha256);
      expect(b.key.comment).toBe('two words');
    }
  });
});

describe('parseSshPublicKey refuses', () => {
  const ed25519 = (): Buffer => Buffer.concat([sshString('ssh-ed25519'), sshString(ed25519FromNode())]);

  function refuses(line: string, reason: RegExp): void {
    const result = parseSshPublicKey(line);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  }

  it('empty, multi-line and non-key text', () => {
    refuses('', /empty/);
    refuses('   ', /empty/);
    refuses(
      `ssh-ed25519 ${ed25519().toString('base64')}\nssh-ed25519 ${ed25519().toString('base64')}`,
      /single line/,
    );
    refuses('hello world', /key type/);
    refuses('-----BEGIN PUBLIC KEY-----', /key type/);
  });

  it('unsupported key types (DSA, security keys, certificates)', async () => {
    refuses(keyLine('ssh-dss', sshString('ssh-dss'), sshMpint(Buffer.from([7]))), /key type/);
    refuses(keyLine('sk-ssh-ed25519@openssh.com', sshString('sk-ssh-ed25519@openssh.com')), /key type/);
    refuses(keyLine('ssh-ed25519-cert-v01@openssh.com', sshString('x')), /key type/);
  });

  it('data that is not canonical base64', () => {
    refuses('ssh-ed25519 not*base64', /base64/);
    refuses('ssh-ed25519', /base64/);
    // An ed25519 blob is 51 bytes: its base64 has no padding, so an added `=` decodes to the same bytes.
    refuses(`ssh-ed25519 ${ed25519().toString('base64')}=`, /canonical/);
  });

  it('a blob whose inner type differs from the prefix', () => {
    refuses(`ssh-rsa ${ed25519().toString('base64')}`, /of type "ssh-ed25519", not ssh-rsa/);
    refuses(`ecdsa-sha2-nistp256 ${ed25519().toString('base64')}`, /not ecdsa-sha2-nistp256/);
  });

  it('truncated blobs and trailing data', () => {
    const blob = ed25519();
    refuses(`ssh-ed25519 ${blob.subarray(0, 2).toString('base64')}`, /ends before/);
    refuses(`ssh-ed25519 ${blob.subarray(0, blob.length - 5).toString('base64')}`, /ends inside/);
    refuses(`ssh-ed25519 ${Buffer.concat([blob, Buffer.from([0, 0, 0, 0])]).toString('base64')}`, /trailing/);
  });

  it('ed25519 keys of the wrong length', () => {
    refuses(keyLine('ssh-ed25519', sshString('ssh-ed25519'), sshString(Buffer.alloc(31, 7))), /32 bytes/);
    refuses(keyLine('ssh-ed25519', sshString('ssh-ed25519'), sshString(Buffer.alloc(33, 7))), /32 bytes/);
  });

  it('RSA keys that are too small, even, or have a bad exponent', () => {
    const small = rsaKeyFromNode(768);
    refuses(
      keyLine('ssh-rsa', sshString('ssh-rsa'), sshMpint(small.e), sshMpint(small.n)),
      /at least 1024 bits/,
    );
    const { n, e } = rsaKeyFromNode(2048);
    const even = Buffer.from(n);
    even[even.length - 1] = (even[even.length - 1] ?? 0) & 0xfe;
    refuses(keyLine('ssh-rsa', sshString('ssh-rsa'), sshMpint(e), sshMpint(even)), /even/);
    refuses(keyLine('ssh-rsa', sshString('ssh-rsa'), sshMpint(Buffer.from([1])), sshMpint(n)), /exponent/);
    refuses(keyLine('ssh-rsa', sshString('ssh-rsa'), sshMpint(Buffer.from([4])), sshMpint(n)), /exponent/);
    refuses(
      keyLine('ssh-rsa', sshString('ssh-rsa'), sshString(Buffer.from([0x81])), sshMpint(n)),
      /negative/,
    );
    refuses(keyLine('ssh-rsa', sshString('ssh-rsa'), sshMpint(e), sshString(Buffer.alloc(3))), /zero/);
    refuses(keyLine('ssh-rsa', sshString('ssh-rsa'), sshMpint(e)), /ends before/);
  });

  it('ECDSA keys with a mismatched curve, a compressed point or a point off the curve', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const x = Buffer.from(jwk.x ?? '', 'base64url');
    const y = Buffer.from(jwk.y ?? '', 'base64url');
    const point = Buffer.concat([Buffer.from([4]), x, y]);
    const valid = keyLine(
      'ecdsa-sha2-nistp256',
      sshString('ecdsa-sha2-nistp256'),
      sshString('nistp256'),
      sshString(point),
    );
    expect(parseSshPublicKey(valid).ok).toBe(true);
    refuses(
      keyLine(
        'ecdsa-sha2-nistp256',
        sshString('ecdsa-sha2-nistp256'),
        sshString('nistp384'),
        sshString(point),
      ),
      /curve/,
    );
    const compressed = Buffer.concat([Buffer.from([2]), x]);
    refuses(
      keyLine(
        'ecdsa-sha2-nistp256',
        sshString('ecdsa-sha2-nistp256'),
        sshString('nistp256'),
        sshString(compressed),
      ),
      /uncompressed/,
    );
    const offCurve = Buffer.from(point);
    offCurve[offCurve.length - 1] = (offCurve[offCurve.length - 1] ?? 0) ^ 1;
    refuses(
      keyLine(
        'ecdsa-sha2-nistp256',
        sshString('ecdsa-sha2-nistp256'),
        sshString('nistp256'),
        sshString(offCurve),
      ),
      /not a valid public key/,
    );
  });
});
