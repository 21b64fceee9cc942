// A JSON body of `null` is no parameters, as GitLab (Grape) reads a JSON body that is not a hash; a widely
// used Go client sends `null` whenever its caller passes no options (issue 26). Driven by the spec: every
// write of the spec, sent `null`, answers what the same write sent `{}` answers, and never "not valid JSON".
//
// The writes name a project or group that does not exist (the probe's path values), with the administrator's
// token: the body parser, authentication and the validator all run, and no fixture changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type Target } from '../src/index.js';
import { inParallel, operationRequests } from '../src/operationRequests.js';
import { requestCases } from '../src/requestCases.js';
import { loadSpecIndex } from '../src/specIndex.js';

const index = loadSpecIndex();
const cases = requestCases(index, () => target.config.fixtures);
const { send, urlOf } = operationRequests(index, cases, () => target);

let target: Target;

beforeAll(async () => {
  target = await openTarget();
});
afterAll(async () => {
  await target.close();
});

describe('a JSON body of null', () => {
  const writes = index.walkable.filter((entry) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(entry.method));

  it('answers as the body {} does, on every write of the spec', { timeout: 300_000 }, async () => {
    const differences: string[] = [];
    await inParallel(writes, 4, async (entry) => {
      const base = { ...cases.baseCase(entry, 0, true), anonymous: false, contentType: 'application/json' };
      const asNull = await send(entry, { ...base, body: 'null' });
      const asEmpty = await send(entry, { ...base, body: '{}' });
      const same = asNull.status === asEmpty.status && (asNull.status < 400 || asNull.text === asEmpty.text);
      if (!same || /not valid JSON/i.test(asNull.text) || asNull.status >= 500 || asNull.problems.length > 0)
        differences.push(
          `${entry.method} ${urlOf(entry, base)}: null ${asNull.status} ${asNull.text.slice(0, 120)} ` +
            `/ {} ${asEmpty.status} ${asEmpty.text.slice(0, 120)} ${asNull.problems.join('; ')}`,
        );
    });
    expect(writes.length).toBeGreaterThan(100);
    expect(differences).toEqual([]);
  });

  it('other bare JSON values stay refused (400), since no operation takes one', async () => {
    const settings = index.operations.find(
      (entry) => entry.operationId === 'updateGlobalNotificationSettings',
    );
    expect(settings).toBeDefined();
    if (!settings) return;
    const base = { ...cases.baseCase(settings, 0, true), anonymous: false, contentType: 'application/json' };
    for (const body of ['"text"', '5', 'true']) {
      const answer = await send(settings, { ...base, body });
      expect([body, answer.status]).toEqual([body, 400]);
    }
  });
});
