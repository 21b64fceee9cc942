// Settings of the whole instance that change what some operations do: the tier (higher-tier behaviour such
// as the delayed deletion of projects) and limits. They come from the `instance` section of the fixtures
// file, and a caller of createApp may override them (tests).

export type Tier = 'free' | 'premium';

export interface InstanceSettings {
  /** `premium` switches on the higher-tier behaviour (delayed project deletion and restore). */
  tier: Tier;
  /** Days between marking a project for deletion and removing it (higher tiers; GitLab's default is 7). */
  deletionAdjournedPeriodDays: number;
  /** Largest file the uploads of a project take, in bytes (GitLab's default attachment limit is 100 MB). */
  maxAttachmentSizeBytes: number;
}

/** The `instance` section of a fixtures file. */
export interface InstanceFixture {
  tier?: Tier;
  deletion_adjourned_period_days?: number;
  max_attachment_size_mb?: number;
}

export const DEFAULT_INSTANCE_SETTINGS: InstanceSettings = {
  tier: 'free',
  deletionAdjournedPeriodDays: 7,
  maxAttachmentSizeBytes: 100 * 1024 * 1024,
};

/** The settings of a running server: the defaults, then the fixtures file's section, then the overrides. */
export function instanceSettings(
  fixture: InstanceFixture | undefined,
  overrides: Partial<InstanceSettings> = {},
): InstanceSettings {
  const fromFixture: Partial<InstanceSettings> = {};
  if (fixture?.tier !== undefined) fromFixture.tier = fixture.tier;
  if (fixture?.deletion_adjourned_period_days !== undefined)
    fromFixture.deletionAdjournedPeriodDays = fixture.deletion_adjourned_period_days;
  if (fixture?.max_attachment_size_mb !== undefined)
    fromFixture.maxAttachmentSizeBytes = Math.round(fixture.max_attachment_size_mb * 1024 * 1024);
  const settings = { ...DEFAULT_INSTANCE_SETTINGS, ...fromFixture, ...overrides };
  if (settings.tier !== 'free' && settings.tier !== 'premium')
    throw new Error(`instance.tier must be "free" or "premium", not ${JSON.stringify(settings.tier)}`);
  if (!(settings.deletionAdjournedPeriodDays >= 0))
    throw new Error('instance.deletion_adjourned_period_days must be a number of days, 0 or more');
  if (!(settings.maxAttachmentSizeBytes > 0))
    throw new Error('instance.max_attachment_size_mb must be more than 0');
  return settings;
}
