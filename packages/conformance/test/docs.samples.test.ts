// The docs' code samples (apps/docs/examples, one region per operation) are checked by the docs build: a
// sample that does not compile, an operation without a sample and a sample of an operation the spec lacks
// each fail it. The region rules are checked on small inputs; the type check by running the build's check
// on a copy of one example file, once as it is and once broken. The curl samples are made from the client
// samples and the spec, and a curl sample whose request the operation refuses fails the build too.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { curlSamplesFor } from '../../../apps/docs/scripts/curl.mjs';
import { readRegions, samplesFor, withCodeSamples } from '../../../apps/docs/scripts/samples.mjs';

// The docs package of this repository: the samples are part of its build, not of the conformance suite.
const docsDir = fileURLToPath(new URL('../../../apps/docs/', import.meta.url));
const examplesDir = join(docsDir, 'examples');

const spec = {
  paths: {
    '/projects/{id}/repository/branches': {
      get: { operationId: 'listBranches' },
      post: { operationId: 'createBranch' },
    },
  },
};

function region(name: string, lines: string[], file = 'branches.ts') {
  return { file, line: 1, name, lines };
}

const setup = region('setup', [
  "import { CollabApiError, createCollabClient, unwrap } from '@collab/client';",
  '',
  "const api = createCollabClient({ baseUrl: 'https://collab.example.com' });",
]);

describe('the samples of the operations', () => {
  it('takes one sample per operation, with the setup and only the imports it uses', () => {
    const { samples, errors } = samplesFor(spec, [
      setup,
      region('listBranches', [
        "  for await (const branch of api.paginate(() => api.GET('/projects/{id}/repository/branches'))) {",
        '    console.log(branch.name);',
        '  }',
      ]),
      region('createBranch', ["  await unwrap(api.POST('/projects/{id}/repository/branches'));"]),
    ]);
    expect(errors).toEqual([]);
    expect(samples.get('listBranches')).toBe(
      [
        "import { createCollabClient } from '@collab/client';",
        '',
        "const api = createCollabClient({ baseUrl: 'https://collab.example.com' });",
        '',
        "for await (const branch of api.paginate(() => api.GET('/projects/{id}/repository/branches'))) {",
        '  console.log(branch.name);',
        '}',
      ].join('\n'),
    );
    expect(samples.get('createBranch')).toContain(
      "import { createCollabClient, unwrap } from '@collab/client';",
    );
    const documented = withCodeSamples(spec, samples);
    expect(documented.paths['/projects/{id}/repository/branches'].post).toMatchObject({
      'x-codeSamples': [{ lang: 'TypeScript', label: '@collab/client', source: samples.get('createBranch') }],
    });
    // The spec itself is left as it was.
    expect(spec.paths['/projects/{id}/repository/branches'].post).toEqual({ operationId: 'createBranch' });
  });

  it('fails on an operation without a sample, an unknown operationId, a second sample and an empty one', () => {
    expect(samplesFor(spec, [setup, region('listBranches', ['  api;'])]).errors).toEqual([
      'createBranch: no sample (add a // #region createBranch to apps/docs/examples)',
    ]);
    expect(
      samplesFor(spec, [
        region('listBranches', ['api;']),
        region('createBranch', ['api;']),
        region('getBranch', ['api;']),
      ]).errors,
    ).toEqual(['branches.ts:1: sample of getBranch, which is no operationId of the spec']);
    expect(
      samplesFor(spec, [
        region('listBranches', ['api;']),
        region('createBranch', ['api;']),
        region('createBranch', ['x;']),
      ]).errors,
    ).toEqual(['branches.ts:1: a second sample of createBranch']);
    expect(
      samplesFor(spec, [region('listBranches', ['api;']), region('createBranch', ['  '])]).errors,
    ).toEqual(['branches.ts:1: the sample of createBranch is empty']);
  });

  it('reads every region of the example files, one per operation of the bundled spec', async () => {
    const { regions, errors } = readRegions(examplesDir);
    expect(errors).toEqual([]);
    const bundled = JSON.parse(await readFile(join(docsDir, '../../spec/dist/openapi.json'), 'utf8'));
    expect(samplesFor(bundled, regions).errors).toEqual([]);
  });
});

// One operation with a path parameter, a pattern on its body and a token; the client sample names its body.
const thingsSpec = {
  servers: [{ url: '{base_url}/api/v4', variables: { base_url: { default: 'http://localhost:3000' } } }],
  security: [{ privateTokenHeader: [] }],
  paths: {
    '/projects/{id}/things': {
      post: {
        operationId: 'createThing',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'a%2Fb' },
        ],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string', pattern: '^[a-z-]+$', examples: ['from-the-spec'] },
                  token: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
};

function clientSample(body: string): Map<string, string> {
  return new Map([
    [
      'createThing',
      [
        "await api.POST('/projects/{id}/things', {",
        "  params: { path: { id: 'my-group/my-project' } },",
        `  body: ${body},`,
        '});',
      ].join('\n'),
    ],
  ]);
}

describe('the curl samples', () => {
  it('send the client sample’s request: its parameters and body, the token its security names', () => {
    const { samples, errors } = curlSamplesFor(thingsSpec, clientSample("{ name: 'new-thing' }"));
    expect(errors).toEqual([]);
    expect(samples.get('createThing')).toBe(
      [
        'curl \\',
        '  --request POST \\',
        '  --header "PRIVATE-TOKEN: $COLLAB_TOKEN" \\',
        '  --header "Content-Type: application/json" \\',
        `  --data '{"name":"new-thing"}' \\`,
        '  http://localhost:3000/api/v4/projects/my-group%2Fmy-project/things',
      ].join('\n'),
    );
    // Without a client sample, the spec's examples.
    expect(curlSamplesFor(thingsSpec).samples.get('createThing')).toContain(
      `--data '{"name":"from-the-spec"}'`,
    );
  });

  it('fail the build on a request the operation refuses', () => {
    const { samples, errors } = curlSamplesFor(thingsSpec, clientSample("{ name: 'Not Valid' }"));
    expect(samples.size).toBe(0);
    expect(errors).toEqual([expect.stringMatching(/^createThing: body.* must match pattern/)]);
  });

  it('splice an environment variable the client sample reads into the body, as the shell runs it', () => {
    const { samples } = curlSamplesFor(
      thingsSpec,
      clientSample("{ name: 'new-thing', token: process.env.THING_TOKEN ?? '' }"),
    );
    const command = samples.get('createThing') ?? '';
    // A stand-in curl that prints its arguments, one a line.
    const printed = execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }\n${command}`], {
      env: { PATH: process.env.PATH, THING_TOKEN: "it's secret", COLLAB_TOKEN: 'the-token' },
      encoding: 'utf8',
    }).split('\n');
    expect(printed).toContain('PRIVATE-TOKEN: the-token');
    const data = printed[printed.indexOf('--data') + 1] ?? '';
    expect(JSON.parse(data)).toEqual({ name: 'new-thing', token: "it's secret" });
  });

  it('are valid requests of every operation of the bundled spec', async () => {
    const bundled = JSON.parse(await readFile(join(docsDir, '../../spec/dist/openapi.json'), 'utf8'));
    const { samples } = samplesFor(bundled, readRegions(examplesDir).regions);
    const curl = curlSamplesFor(bundled, samples);
    expect(curl.errors).toEqual([]);
    expect(curl.samples.size).toBe(samples.size);
  }, 60_000);
});

describe('the docs build', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  // A directory of example files as the build reads them: the docs package's tsconfig and dependencies.
  async function examples(branches: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'collab-docs-examples-'));
    dirs.push(dir);
    await symlink(join(docsDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: join(examplesDir, 'tsconfig.json'), include: ['*.ts'] }),
    );
    await writeFile(join(dir, 'branches.ts'), branches);
    return dir;
  }

  async function check(dir: string): Promise<{ code: number; output: string }> {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [join(docsDir, 'scripts/build.mjs'), '--check', '--examples', dir],
        { cwd: docsDir },
      );
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, output: failed.stdout + failed.stderr };
    }
  }

  it('fails when a sample stops compiling', async () => {
    const branches = await readFile(join(examplesDir, 'branches.ts'), 'utf8');
    // The branch's name is a string: a number is a compile error.
    const broken = branches.replace("body: { branch: 'feature/login'", 'body: { branch: 42');
    expect(broken).not.toBe(branches);
    const [asItIs, withTypeError] = await Promise.all([
      check(await examples(branches)),
      check(await examples(broken)),
    ]);

    expect(withTypeError.code).toBe(1);
    expect(withTypeError.output).toContain('the code samples do not compile');
    expect(withTypeError.output).toMatch(/branches\.ts\(\d+,\d+\): error TS2322/);
    // The file as it is compiles; the check then fails only because the other operations have no sample.
    expect(asItIs.code).toBe(1);
    expect(asItIs.output).not.toContain('do not compile');
    expect(asItIs.output).toContain('getRepositoryFile: no sample');
    expect(asItIs.output).not.toContain('getBranch: no sample');
  }, 240_000);
});
