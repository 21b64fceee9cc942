import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '../src/curl.js';

describe('curlCommand', () => {
  it('quotes every word so a shell reads it back unchanged', () => {
    const awkward = `it's "quoted" $HOME \`x\` \\ [0]{a}`;
    const echoed = execFileSync('sh', ['-c', `printf %s ${shellQuote(awkward)}`], { encoding: 'utf8' });
    expect(echoed).toBe(awkward);
  });

  it('repeats method, headers, body and URL, tokens masked', () => {
    const command = curlCommand({
      method: 'post',
      url: 'http://localhost:3000/api/v4/projects?private_token=secret&x=1',
      headers: new Headers({
        'PRIVATE-TOKEN': 'secret',
        'content-type': 'application/json',
        'content-length': '9',
      }),
      body: `{"a":"b'c"}`,
    });
    expect(command).toBe(
      `curl -sS -i -g -X POST -H 'content-type: application/json' -H 'private-token: <token>'` +
        ` --data-raw '{"a":"b'\\''c"}' 'http://localhost:3000/api/v4/projects?private_token=<token>&x=1'`,
    );
    expect(command).not.toContain('secret');
  });

  it('keeps the scheme of a masked Authorization header, and shows tokens when asked', () => {
    const request = { method: 'GET', url: 'http://h/scim', headers: { Authorization: 'Bearer abc' } };
    expect(curlCommand(request)).toContain(`-H 'Authorization: Bearer <token>'`);
    expect(curlCommand(request, { revealTokens: true })).toContain(`-H 'Authorization: Bearer abc'`);
  });

  it('asks HEAD with --head, which does not wait for a body', () => {
    expect(curlCommand({ method: 'HEAD', url: 'http://h/x', headers: [] })).toBe(
      `curl -sS -i -g --head 'http://h/x'`,
    );
  });
});
