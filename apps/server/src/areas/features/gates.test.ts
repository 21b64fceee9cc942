import { describe, expect, it } from 'vitest';
import {
  decodeGates,
  type FeatureActor,
  featureState,
  gatesAllow,
  gateViews,
  inPercentageOfActors,
  parseGateValue,
} from './gates.js';

const user: FeatureActor = { type: 'User', id: 4, isAdmin: false };
const admin: FeatureActor = { type: 'User', id: 1, isAdmin: true };
const project: FeatureActor = { type: 'Project', id: 2 };

describe('feature state and gate views', () => {
  it('is off with only the boolean gate shown when nothing is set', () => {
    const gates = decodeGates([]);
    expect(featureState(gates)).toBe('off');
    expect(gateViews(gates)).toEqual([{ key: 'boolean', value: false }]);
  });

  it('is on with the boolean gate, or with 100 percent of the time', () => {
    expect(featureState(decodeGates([{ key: 'boolean', value: 'true' }]))).toBe('on');
    expect(featureState(decodeGates([{ key: 'percentage_of_time', value: '100' }]))).toBe('on');
  });

  it('is conditional with a percentage or actors, shown in Flipper order', () => {
    const gates = decodeGates([
      { key: 'groups', value: 'admins' },
      { key: 'percentage_of_time', value: '30' },
      { key: 'actors', value: 'User:4' },
      { key: 'actors', value: 'Project:2' },
      { key: 'percentage_of_actors', value: '10' },
    ]);
    expect(featureState(gates)).toBe('conditional');
    expect(gateViews(gates)).toEqual([
      { key: 'boolean', value: false },
      { key: 'actors', value: ['Project:2', 'User:4'] },
      { key: 'percentage_of_actors', value: 10 },
      { key: 'percentage_of_time', value: 30 },
      { key: 'groups', value: ['admins'] },
    ]);
    expect(featureState(decodeGates([{ key: 'percentage_of_actors', value: '100' }]))).toBe('conditional');
  });
});

describe('gatesAllow', () => {
  it('lets everyone through with the boolean gate, nobody without gates', () => {
    expect(gatesAllow('f', decodeGates([{ key: 'boolean', value: 'true' }]), [])).toBe(true);
    expect(gatesAllow('f', decodeGates([]), [user, project])).toBe(false);
  });

  it('lets listed actors through, and only them', () => {
    const gates = decodeGates([{ key: 'actors', value: 'Project:2' }]);
    expect(gatesAllow('f', gates, [project])).toBe(true);
    expect(gatesAllow('f', gates, [user])).toBe(false);
    expect(gatesAllow('f', gates, [user, project])).toBe(true);
    expect(gatesAllow('f', gates, [])).toBe(false);
  });

  it('lets members of a feature group through', () => {
    const gates = decodeGates([{ key: 'groups', value: 'admins' }]);
    expect(gatesAllow('f', gates, [admin])).toBe(true);
    expect(gatesAllow('f', gates, [user])).toBe(false);
  });

  it('uses the random draw for a percentage of time', () => {
    const gates = decodeGates([{ key: 'percentage_of_time', value: '30' }]);
    expect(gatesAllow('f', gates, [], () => 0.2)).toBe(true);
    expect(gatesAllow('f', gates, [], () => 0.4)).toBe(false);
  });

  it('buckets actors stably for a percentage of actors', () => {
    const actors = Array.from(
      { length: 1000 },
      (_, i): FeatureActor => ({ type: 'User', id: i + 1, isAdmin: false }),
    );
    const inside = actors.filter((actor) => inPercentageOfActors('my_feature', actor, 25));
    // Roughly a quarter, and the same actors every time.
    expect(inside.length).toBeGreaterThan(180);
    expect(inside.length).toBeLessThan(320);
    expect(actors.filter((actor) => inPercentageOfActors('my_feature', actor, 25))).toEqual(inside);
    expect(actors.filter((actor) => inPercentageOfActors('my_feature', actor, 0))).toEqual([]);
    expect(actors.filter((actor) => inPercentageOfActors('my_feature', actor, 100))).toHaveLength(1000);
    const gates = decodeGates([{ key: 'percentage_of_actors', value: '25' }]);
    expect(gatesAllow('my_feature', gates, [inside[0] as FeatureActor])).toBe(true);
  });
});

describe('parseGateValue', () => {
  it('accepts booleans and integer percentages, as JSON or form text', () => {
    expect(parseGateValue(true)).toBe(true);
    expect(parseGateValue('false')).toBe(false);
    expect(parseGateValue(30)).toBe(30);
    expect(parseGateValue('0')).toBe(0);
    expect(parseGateValue('100')).toBe(100);
  });

  it('refuses anything else', () => {
    for (const value of [101, '101', -1, 2.5, 'yes', '', null, undefined, {}])
      expect(parseGateValue(value)).toBeUndefined();
  });
});
