// Feature-flag gates as GitLab (Flipper) evaluates and shows them. Pure: gate rows in, state and decisions out.
import { crc32 } from 'node:zlib';
import type { Schemas } from '../../core/http/types.js';

export type GateKey = 'boolean' | 'percentage_of_time' | 'percentage_of_actors' | 'actors' | 'groups';
export type FeatureState = Schemas['Feature']['state'];
export type FeatureGateView = Schemas['FeatureGate'];

/** Something a feature can be enabled for; `flipperId` is GitLab's actor id (`User:1`, `Project:2`). */
export type FeatureActor =
  | { type: 'User'; id: number; isAdmin: boolean }
  | { type: 'Project'; id: number }
  | { type: 'Group'; id: number };

export function flipperId(actor: Pick<FeatureActor, 'type' | 'id'>): string {
  return `${actor.type}:${actor.id}`;
}

/** Feature groups: named sets of actors a feature can be enabled for (GitLab registers them in code). */
export const FEATURE_GROUPS: Readonly<Record<string, (actor: FeatureActor) => boolean>> = {
  admins: (actor) => actor.type === 'User' && actor.isAdmin,
};

/** The stored gates of one feature, decoded. */
export interface Gates {
  boolean: boolean;
  percentageOfTime: number;
  percentageOfActors: number;
  actors: string[];
  groups: string[];
}

export function decodeGates(rows: readonly { key: string; value: string }[]): Gates {
  const gates: Gates = { boolean: false, percentageOfTime: 0, percentageOfActors: 0, actors: [], groups: [] };
  for (const row of rows) {
    if (row.key === 'boolean') gates.boolean = row.value === 'true';
    else if (row.key === 'percentage_of_time') gates.percentageOfTime = Number(row.value);
    else if (row.key === 'percentage_of_actors') gates.percentageOfActors = Number(row.value);
    else if (row.key === 'actors') gates.actors.push(row.value);
    else if (row.key === 'groups') gates.groups.push(row.value);
  }
  gates.actors.sort();
  gates.groups.sort();
  return gates;
}

/** `on` when the boolean gate is set or every call passes; `conditional` when some gate can pass; else `off`. */
export function featureState(gates: Gates): FeatureState {
  if (gates.boolean || gates.percentageOfTime >= 100) return 'on';
  const conditional =
    gates.percentageOfTime > 0 ||
    gates.percentageOfActors > 0 ||
    gates.actors.length > 0 ||
    gates.groups.length > 0;
  return conditional ? 'conditional' : 'off';
}

/** The gates as the API lists them: the boolean gate always, the others only when they hold a value. */
export function gateViews(gates: Gates): FeatureGateView[] {
  const views: FeatureGateView[] = [{ key: 'boolean', value: gates.boolean }];
  if (gates.actors.length > 0) views.push({ key: 'actors', value: gates.actors });
  if (gates.percentageOfActors > 0)
    views.push({ key: 'percentage_of_actors', value: gates.percentageOfActors });
  if (gates.percentageOfTime > 0) views.push({ key: 'percentage_of_time', value: gates.percentageOfTime });
  if (gates.groups.length > 0) views.push({ key: 'groups', value: gates.groups });
  return views;
}

/** Flipper's stable bucketing: the same actor is always in or out of a percentage of actors. */
export function inPercentageOfActors(
  featureName: string,
  actor: Pick<FeatureActor, 'type' | 'id'>,
  percentage: number,
): boolean {
  const scale = 1000;
  return crc32(`${featureName}${flipperId(actor)}`) % (100 * scale) < percentage * scale;
}

/**
 * Whether the gates let a call through. Without actors only the boolean and percentage-of-time gates can;
 * with several actors (a project and the user acting on it) one passing actor is enough.
 */
export function gatesAllow(
  featureName: string,
  gates: Gates,
  actors: readonly FeatureActor[],
  random: () => number = Math.random,
): boolean {
  if (gates.boolean) return true;
  if (gates.percentageOfTime > 0 && random() * 100 < gates.percentageOfTime) return true;
  return actors.some(
    (actor) =>
      gates.actors.includes(flipperId(actor)) ||
      (gates.percentageOfActors > 0 && inPercentageOfActors(featureName, actor, gates.percentageOfActors)) ||
      gates.groups.some((group) => FEATURE_GROUPS[group]?.(actor) === true),
  );
}

/** The `value` of a set-gate request: a boolean, or an integer percentage 0–100; undefined when invalid. */
export function parseGateValue(value: unknown): boolean | number | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  const percentage = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof percentage === 'number' && Number.isInteger(percentage) && percentage >= 0 && percentage <= 100)
    return percentage;
  return undefined;
}
