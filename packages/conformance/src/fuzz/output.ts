// How `collab-conformance fuzz` prints a finding and its summary.
import type { Finding, FuzzReport } from './engine.js';

export function formatFinding(finding: Finding): string {
  return [
    `FINDING ${finding.check}: ${finding.operationId} (${finding.method} ${new URL(finding.url).pathname})`,
    `  request: ${finding.request}`,
    `  answer:  ${finding.status === 0 ? 'none' : finding.status} ${finding.message.slice(0, 600)}`,
    `  reproduce: ${finding.curl}`,
  ].join('\n');
}

function counts(record: Record<string, number>): string {
  return Object.entries(record)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key} ${count}`)
    .join(', ');
}

export function formatSummary(report: FuzzReport): string {
  const byCheck: Record<string, number> = {};
  for (const finding of report.findings) byCheck[finding.check] = (byCheck[finding.check] ?? 0) + 1;
  const rate = report.seconds > 0 ? Math.round(report.requests / report.seconds) : 0;
  return [
    `${report.requests} requests in ${report.seconds.toFixed(1)} s (${rate}/s; seed ${report.seed}; ` +
      `${report.probeRequests} more to probe the operations), ${report.operations.fuzzed} operations fuzzed` +
      (report.operations.notImplemented.length > 0
        ? `, ${report.operations.notImplemented.length} not implemented by the server`
        : ''),
    `  by kind:   ${counts(report.byKind)}`,
    `  answers:   ${counts(report.byStatus)}`,
    ...Object.entries(report.unsupported).map(
      ([operationId, reason]) => `  not generated for ${operationId}: ${reason}`,
    ),
    report.findings.length === 0
      ? '  findings:  none'
      : `  findings:  ${report.findings.length} (${counts(byCheck)})`,
  ].join('\n');
}
