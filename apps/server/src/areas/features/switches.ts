// The server's own switches, in one place (issue 19, point 4): what turns a behaviour on or off is read here
// and nowhere else, from the instance settings (the tier, core/instance.ts: GitLab's licensed features) or
// from the feature flags that administrators set through this area's Features API. Every area that decides
// on one of them asks the function of that switch (through this area's index), so the list below is the
// whole list.
//
// | switch                       | read from                                   | GitLab's equivalent                 |
// |------------------------------|---------------------------------------------|-------------------------------------|
// | higherTier                   | instance tier `premium`                     | a Premium licence                   |
// | epicsAvailable               | higher tier                                 | the `epics` licensed feature        |
// | multipleIssueAssignees       | higher tier                                 | `multiple_issue_assignees`          |
// | multipleMergeRequestAssignees| higher tier                                 | `multiple_merge_request_assignees`  |
// | epicNotificationEvent        | higher tier                                 | the `new_epic` custom event (EE)    |
// | delayedProjectDeletion       | higher tier + deletion_adjourned_period_days| adjourned (delayed) deletion        |
// | pipelineTestReport           | feature flag `pipeline_test_report`         | the test report's feature flag      |
// | confidentialEpics            | feature flag `confidential_epics`           | the `confidential_epics` flag       |
//
// It lives in the features area, beside the gates it reads, so that core/ depends on no area.
import type { ServerContext } from '../../core/context.js';
import type { FeatureActor } from './gates.js';
import { isFeatureEnabled } from './service.js';

/** The feature flag behind the pipeline test report route (off unless an administrator sets it). */
export const PIPELINE_TEST_REPORT_FEATURE = 'pipeline_test_report';
/** The feature flag that lets epics be confidential (per group or instance-wide; off by default). */
export const CONFIDENTIAL_EPICS_FEATURE = 'confidential_epics';

/** What the tier switches read: the instance settings of the running server. */
type WithInstance = Pick<ServerContext, 'instance'>;
/** What the feature-flag switches read: the database the flags are stored in. */
type WithDatabase = Pick<ServerContext, 'db'>;

/**
 * The higher tier (the instance setting `tier: premium`): the switch the tier-only behaviours follow (those
 * below, `enterprise` in /version, the higher tier's integrations).
 */
export function higherTier(context: WithInstance): boolean {
  return context.instance.tier === 'premium';
}

/** Epics exist on the higher tier only (without it every epic call answers 403). */
export function epicsAvailable(context: WithInstance): boolean {
  return higherTier(context);
}

/** Several assignees per issue are a higher-tier feature; the free tier keeps the first one. */
export function multipleIssueAssignees(context: WithInstance): boolean {
  return higherTier(context);
}

/** Several assignees per merge request are a higher-tier feature; the free tier keeps the first one. */
export function multipleMergeRequestAssignees(context: WithInstance): boolean {
  return higherTier(context);
}

/** The `new_epic` custom notification event exists on the higher tier only. */
export function epicNotificationEvent(context: WithInstance): boolean {
  return higherTier(context);
}

/**
 * Delayed project deletion (higher tier): DELETE marks a project and removes it after the instance's number
 * of days, and POST /projects/:id/restore brings it back. Undefined when projects are removed at once.
 */
export function delayedProjectDeletion(context: WithInstance): { delayDays: number } | undefined {
  return higherTier(context) ? { delayDays: context.instance.deletionAdjournedPeriodDays } : undefined;
}

/**
 * Whether the pipeline test report is served for these actors (the project, its groups and the caller): the
 * feature flag, on for everyone or for one of them.
 */
export function pipelineTestReport(context: WithDatabase, actors: readonly FeatureActor[]): Promise<boolean> {
  return isFeatureEnabled(context.db, PIPELINE_TEST_REPORT_FEATURE, actors);
}

/** Whether epics of this group may be confidential: the feature flag, on for everyone or for the group. */
export function confidentialEpics(context: WithDatabase, groupId: number): Promise<boolean> {
  return isFeatureEnabled(context.db, CONFIDENTIAL_EPICS_FEATURE, { type: 'Group', id: groupId });
}
