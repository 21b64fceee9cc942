// The server's switches: the tier switches follow the instance settings, the feature-flag switches follow the
// gates administrators set through the Features API (set here over HTTP, as an administrator would).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollabApp } from '../../app.js';
import { type AppServer, startAppServer } from '../../appServer.testSupport.js';
import { DEFAULT_INSTANCE_SETTINGS, type InstanceSettings } from '../../core/instance.js';
import type { Fixtures } from '../../core/store/fixturesFile.js';
import {
  CONFIDENTIAL_EPICS_FEATURE,
  confidentialEpics,
  delayedProjectDeletion,
  epicNotificationEvent,
  epicsAvailable,
  higherTier,
  multipleIssueAssignees,
  PIPELINE_TEST_REPORT_FEATURE,
  pipelineTestReport,
} from './switches.js';

const free: { instance: InstanceSettings } = { instance: { ...DEFAULT_INSTANCE_SETTINGS, tier: 'free' } };
const premium: { instance: InstanceSettings } = {
  instance: { ...DEFAULT_INSTANCE_SETTINGS, tier: 'premium', deletionAdjournedPeriodDays: 3 },
};

describe('tier switches', () => {
  it('are all off on the free tier', () => {
    expect(higherTier(free)).toBe(false);
    expect(epicsAvailable(free)).toBe(false);
    expect(multipleIssueAssignees(free)).toBe(false);
    expect(epicNotificationEvent(free)).toBe(false);
    expect(delayedProjectDeletion(free)).toBeUndefined();
  });

  it('are all on on the higher tier, the deletion delay from the instance settings', () => {
    expect(higherTier(premium)).toBe(true);
    expect(epicsAvailable(premium)).toBe(true);
    expect(multipleIssueAssignees(premium)).toBe(true);
    expect(epicNotificationEvent(premium)).toBe(true);
    expect(delayedProjectDeletion(premium)).toEqual({ delayDays: 3 });
  });
});

describe('feature-flag switches', () => {
  const fixtures: Fixtures = {
    users: [
      {
        username: 'root',
        name: 'Root',
        email: 'root@example.com',
        admin: true,
        tokens: [{ name: 'test', token: 'root-token', scopes: ['api'] }],
      },
    ],
    groups: [
      { path: 'one', name: 'One', visibility: 'public' },
      { path: 'two', name: 'Two', visibility: 'public' },
    ],
    projects: [],
  };
  let server: AppServer;
  let app: CollabApp;
  let base: string;
  const groupId = async (path: string) =>
    (
      await app.context.db
        .selectFrom('groups')
        .select('id')
        .where('full_path', '=', path)
        .executeTakeFirstOrThrow()
    ).id;

  /** Sets a gate through the Features API, as an administrator. */
  async function setGate(name: string, body: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${base}/features/${name}`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.text()).toBe(201);
  }

  async function deleteGate(name: string): Promise<void> {
    const response = await fetch(`${base}/features/${name}`, {
      method: 'DELETE',
      headers: { 'PRIVATE-TOKEN': 'root-token' },
    });
    expect(response.status).toBe(204);
  }

  beforeAll(async () => {
    server = await startAppServer('switches', { fixtures });
    app = server.app;
    base = server.base;
  });
  afterAll(async () => {
    await server.close();
  });

  it('the pipeline test report: off until its flag is set, for everyone or for one of the actors', async () => {
    const one = await groupId('one');
    const two = await groupId('two');
    const actors = [{ type: 'Group' as const, id: one }];
    expect(await pipelineTestReport(app.context, actors)).toBe(false);

    await setGate(PIPELINE_TEST_REPORT_FEATURE, { value: true, group: 'two' });
    expect(await pipelineTestReport(app.context, actors)).toBe(false);
    expect(await pipelineTestReport(app.context, [...actors, { type: 'Group', id: two }])).toBe(true);

    await setGate(PIPELINE_TEST_REPORT_FEATURE, { value: true });
    expect(await pipelineTestReport(app.context, actors)).toBe(true);
    expect(await pipelineTestReport(app.context, [])).toBe(true);

    await deleteGate(PIPELINE_TEST_REPORT_FEATURE);
    expect(await pipelineTestReport(app.context, actors)).toBe(false);
  });

  it('confidential epics: off until its flag is set, instance-wide or for the group', async () => {
    const one = await groupId('one');
    const two = await groupId('two');
    expect(await confidentialEpics(app.context, one)).toBe(false);

    await setGate(CONFIDENTIAL_EPICS_FEATURE, { value: true, group: 'one' });
    expect(await confidentialEpics(app.context, one)).toBe(true);
    expect(await confidentialEpics(app.context, two)).toBe(false);

    await setGate(CONFIDENTIAL_EPICS_FEATURE, { value: true });
    expect(await confidentialEpics(app.context, two)).toBe(true);

    await setGate(CONFIDENTIAL_EPICS_FEATURE, { value: false });
    await deleteGate(CONFIDENTIAL_EPICS_FEATURE);
    expect(await confidentialEpics(app.context, one)).toBe(false);
  });
});
