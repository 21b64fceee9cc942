// Fresh SSH public keys in OpenSSH format, made with node's crypto (no ssh-keygen needed), for deploy keys.
import { generateKeyPairSync } from 'node:crypto';

/** An SSH wire-format `string`: a 32-bit length and the bytes. */
export function sshString(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function sshMpint(magnitude: Buffer): Buffer {
  return sshString((magnitude[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), magnitude]) : magnitude);
}

/** A fresh public key line: `<type> <base64> <comment>`. */
export function newKey(
  type: 'ed25519' | 'rsa' | 'ecdsa' = 'ed25519',
  comment = 'conformance@example.com',
): string {
  if (type === 'ed25519') {
    const x = Buffer.from(
      generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '',
      'base64url',
    );
    return `ssh-ed25519 ${Buffer.concat([sshString('ssh-ed25519'), sshString(x)]).toString('base64')} ${comment}`;
  }
  if (type === 'rsa') {
    const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
    const blob = Buffer.concat([
      sshString('ssh-rsa'),
      sshMpint(Buffer.from(jwk.e ?? '', 'base64url')),
      sshMpint(Buffer.from(jwk.n ?? '', 'base64url')),
    ]);
    return `ssh-rsa ${blob.toString('base64')} ${comment}`;
  }
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ]);
  const blob = Buffer.concat([sshString('ecdsa-sha2-nistp256'), sshString('nistp256'), sshString(point)]);
  return `ecdsa-sha2-nistp256 ${blob.toString('base64')} ${comment}`;
}
