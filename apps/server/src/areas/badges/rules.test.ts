import { describe, expect, it } from 'vitest';
import { badgeUrlProblem, checkBadgeFields, type PlaceholderValues, renderUrl } from './rules.js';

const values: PlaceholderValues = {
  project_path: 'acme/platform/infra',
  project_name: 'infra',
  project_id: '4',
  default_branch: 'main',
  commit_sha: 'a'.repeat(40),
};

describe('renderUrl', () => {
  it('replaces every known placeholder, also URL-encoded, and leaves unknown ones', () => {
    expect(
      renderUrl(
        'https://x/%{project_path}/%{project_name}/%{project_id}/%{default_branch}/%{commit_sha}',
        values,
      ),
    ).toBe(`https://x/acme/platform/infra/infra/4/main/${'a'.repeat(40)}`);
    expect(renderUrl('https://x/%25%7Bproject_id%7D/%{latest_tag}/%{project_id', values)).toBe(
      'https://x/4/%{latest_tag}/%{project_id',
    );
  });

  it('keeps %{commit_sha} of an empty repository and the whole URL without a project', () => {
    expect(renderUrl('https://x/%{commit_sha}', { ...values, commit_sha: null })).toBe(
      'https://x/%{commit_sha}',
    );
    expect(renderUrl('https://x/%{project_id}', null)).toBe('https://x/%{project_id}');
  });
});

describe('badge URLs', () => {
  it('takes absolute http(s) URLs with a host, placeholders included', () => {
    for (const url of ['http://x.example', 'https://%{project_name}.example/%{project_path}?a=%{commit_sha}'])
      expect(badgeUrlProblem(url), url).toBeUndefined();
  });

  it('refuses other schemes, relative URLs and URLs without a host', () => {
    expect(badgeUrlProblem('ftp://x.example')).toMatch(/Only allowed schemes are http, https/);
    expect(badgeUrlProblem('javascript:alert(1)')).toMatch(/Only allowed schemes/);
    for (const url of ['/relative', 'http://', 'not a url', ' '])
      expect(badgeUrlProblem(url), url).toMatch(/valid URL/);
  });

  it('reports every bad field at once, as GitLab does', () => {
    expect(() => checkBadgeFields({ link_url: 'ftp://x', image_url: 'nope', name: 'n'.repeat(256) })).toThrow(
      expect.objectContaining({
        status: 400,
        body: {
          message: {
            link_url: [expect.any(String)],
            image_url: [expect.any(String)],
            name: [expect.any(String)],
          },
        },
      }),
    );
    expect(() => checkBadgeFields({ name: 'n'.repeat(255) })).not.toThrow();
  });
});
