// For tests and the benchmark: SSH public keys in OpenSSH format, made with node's crypto.
import { generateKeyPairSync } from 'node:crypto';

/** An SSH wire-format `string`: a 32-bit length and the bytes. */
export function sshString(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A fresh ed25519 public key line: `ssh-ed25519 <base64> <comment>`. */
export function newEd25519Key(comment = 'test'): string {
  const x = Buffer.from(
    generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x ?? '',
    'base64url',
  );
  return `ssh-ed25519 ${Buffer.concat([sshString('ssh-ed25519'), sshString(x)]).toString('base64')} ${comment}`;
}
