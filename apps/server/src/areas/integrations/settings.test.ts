// The settings a PUT writes and a read shows, read through the slugs' descriptions (no database).
import { describe, expect, it } from 'vitest';
import { CATALOG, EVENT_FLAGS, fieldsOf, SLUGS } from './catalog.js';
import { readSettings, settingsAfterPut, visibleSettings } from './settings.js';
import type { IntegrationRow } from './store.js';

/** A stored row made of what a PUT wrote. */
function rowOf(write: ReturnType<typeof settingsAfterPut>, slug: string): IntegrationRow {
  return { id: 1, project_id: 1, slug, active: 1, created_at: '', updated_at: '', ...write };
}

describe('a new integration', () => {
  it("starts with the slug's defaults and GitLab's flags for the events it takes, the others off", () => {
    const write = settingsAfterPut('team-chat-a', undefined, { webhook: 'https://chat.example.com/h' });
    expect(readSettings(write)).toEqual({
      webhook: 'https://chat.example.com/h',
      notify_only_broken_pipelines: true,
      branches_to_be_notified: 'all',
    });
    expect(write).toMatchObject({
      push_events: 1,
      issues_events: 1,
      pipeline_events: 0,
      job_events: 0,
      commit_events: 0,
    });
    const wiki = settingsAfterPut('external-wiki', undefined, { external_wiki_url: 'https://w.example.com' });
    for (const flag of EVENT_FLAGS) expect(wiki[flag], flag).toBe(0);
    expect(
      settingsAfterPut('code-host-status', undefined, { token: 't', repository_url: 'https://c/a/b' }),
    ).toMatchObject({
      pipeline_events: 1,
      push_events: 0,
    });
  });
});

describe('an edit', () => {
  it('keeps what it leaves out, flags included', () => {
    const first = rowOf(
      settingsAfterPut('emails-on-push', undefined, {
        recipients: 'a@example.com',
        disable_diffs: true,
        push_events: false,
      }),
      'emails-on-push',
    );
    const second = settingsAfterPut('emails-on-push', first, { recipients: 'b@example.com' });
    expect(readSettings(second)).toMatchObject({ recipients: 'b@example.com', disable_diffs: true });
    expect(second.push_events).toBe(0);
  });

  it("maps team-chat-c's notify_only_default_branch unless branches_to_be_notified is given", () => {
    const body = { webhook: 'https://chat.example.com/h' };
    const on = settingsAfterPut('team-chat-c', undefined, { ...body, notify_only_default_branch: true });
    expect(readSettings(on).branches_to_be_notified).toBe('default');
    const off = settingsAfterPut('team-chat-c', rowOf(on, 'team-chat-c'), {
      ...body,
      notify_only_default_branch: false,
    });
    expect(readSettings(off).branches_to_be_notified).toBe('all');
    const both = settingsAfterPut('team-chat-c', undefined, {
      ...body,
      notify_only_default_branch: true,
      branches_to_be_notified: 'protected',
    });
    expect(readSettings(both).branches_to_be_notified).toBe('protected');
    // The deprecated flag is not stored: a read derives it.
    expect(readSettings(on)).not.toHaveProperty('notify_only_default_branch');
    expect(visibleSettings('team-chat-c', readSettings(on))).toMatchObject({
      notify_only_default_branch: true,
    });
  });
});

describe('a read', () => {
  it('never shows a secret field of any slug', () => {
    for (const slug of SLUGS) {
      const settings = Object.fromEntries(
        fieldsOf(slug).map(([name, field]) => [name, field.type === 'boolean' ? true : `value-of-${name}`]),
      );
      const visible = visibleSettings(slug, settings);
      for (const [name, field] of fieldsOf(slug)) {
        if (field.type === 'string' && field.secret)
          expect(visible, `${slug} ${name}`).not.toHaveProperty(name);
        if (field.type === 'event') expect(visible, `${slug} ${name}`).not.toHaveProperty(name);
      }
      expect(CATALOG[slug].slug).toBe(slug);
    }
  });
});
