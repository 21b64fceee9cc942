// The spec's OpenAPI links (issue 20, point 2), which `collab-conformance fuzz` follows in its stateful
// sequences: every operation that creates something (a POST answering 201) links its success response to the
// operations that read, update and delete what it created, and every link names an existing operation, only
// parameters that operation has (all of its required path parameters among them), and runtime expressions of
// the forms the fuzzer evaluates.
import { describe, expect, it } from 'vitest';
import { linksOf } from '../src/fuzz/links.js';
import { type JsonObject, loadSpecIndex, resolveRef } from '../src/specIndex.js';

const index = loadSpecIndex();
const byId = new Map(index.operations.map((entry) => [entry.operationId, entry]));

/**
 * POSTs answering 201 that create nothing another operation reads (a Markdown upload, a to-do marked done, a
 * user blocked or unblocked).
 */
const NOTHING_TO_FOLLOW = new Set(['uploadProjectFile', 'markTodoAsDone', 'blockUser', 'unblockUser']);
/** The SCIM provisioning paths are another helper's; their links come with them. */
const OWNED_ELSEWHERE = new Set(['createScimUser']);

function parameterNames(operationId: string): { all: Set<string>; requiredPath: string[] } {
  const entry = byId.get(operationId);
  if (!entry) return { all: new Set(), requiredPath: [] };
  const item = (index.document.paths as Record<string, JsonObject>)[entry.template] ?? {};
  const parameters = [
    ...((item.parameters as unknown[]) ?? []),
    ...((entry.operation.parameters as unknown[]) ?? []),
  ].map((p) => resolveRef(index, p));
  return {
    all: new Set(parameters.map((p) => String(p.name))),
    requiredPath: parameters.filter((p) => p.in === 'path').map((p) => String(p.name)),
  };
}

describe('links of the spec', () => {
  const creates = index.operations.filter(
    (entry) =>
      entry.method === 'POST' &&
      (entry.operation.responses as JsonObject)['201'] !== undefined &&
      !NOTHING_TO_FOLLOW.has(entry.operationId) &&
      !OWNED_ELSEWHERE.has(entry.operationId),
  );

  it('finds the creates of every resource', () => {
    const ids = creates.map((entry) => entry.operationId);
    for (const id of [
      'addProjectBadge',
      'createBranch',
      'protectBranch',
      'addDeployKey',
      'createRemoteMirror',
    ])
      expect(ids).toContain(id);
    for (const id of [
      'createPipeline',
      'createProject',
      'createGroupLabel',
      'createIssueNote',
      'createSnippet',
    ])
      expect(ids).toContain(id);
    for (const id of ['createEpic', 'createProjectIssue', 'setFeatureGate', 'createRepositoryFile'])
      expect(ids).toContain(id);
  });

  it('links every create to what reads, updates or deletes its resource', () => {
    const without = creates.filter((entry) => linksOf(index, entry).length === 0).map((e) => e.operationId);
    expect(without).toEqual([]);
    // A create whose resource has a read links to it; one with a delete links to it.
    const problems: string[] = [];
    for (const entry of creates) {
      const targets = linksOf(index, entry).map((link) => byId.get(link.operationId));
      const siblings = index.operations.filter(
        (other) =>
          other.template.startsWith(`${entry.template}/{`) &&
          other.template.split('/').length === entry.template.split('/').length + 1,
      );
      for (const method of ['GET', 'DELETE'])
        if (siblings.some((s) => s.method === method) && !targets.some((t) => t?.method === method))
          problems.push(`${entry.operationId} has no link to the ${method} of its resource`);
    }
    expect(problems).toEqual([]);
  });

  it('names existing operations and their parameters, with expressions the fuzzer evaluates', () => {
    const problems: string[] = [];
    for (const entry of index.operations) {
      for (const link of linksOf(index, entry)) {
        const where = `${entry.operationId} → ${link.name}`;
        if (!byId.has(link.operationId)) {
          problems.push(`${where}: no operation ${link.operationId}`);
          continue;
        }
        const { all, requiredPath } = parameterNames(link.operationId);
        for (const name of Object.keys(link.parameters))
          if (!all.has(name)) problems.push(`${where}: ${link.operationId} has no parameter ${name}`);
        for (const name of requiredPath)
          if (!(name in link.parameters)) problems.push(`${where}: path parameter ${name} not given`);
        const own = parameterNames(entry.operationId).all;
        for (const [name, expression] of Object.entries(link.parameters)) {
          const match = /^\$(request\.path\.(\w+)|request\.body#\/\w+|response\.body#\/\w+)$/.exec(
            expression,
          );
          if (!match)
            problems.push(`${where}: ${name} has an expression the fuzzer cannot read: ${expression}`);
          else if (match[2] !== undefined && !own.has(match[2]))
            problems.push(`${where}: ${entry.operationId} has no path parameter ${match[2]}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
