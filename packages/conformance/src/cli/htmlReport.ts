// The report of `collab-conformance run` as one self-contained HTML page (no script, no request to any host):
// the totals, the coverage table per operation (result, the documented statuses the run produced and those
// it never produced), then every failure with its violations and curl command.
import { type Failure, type OperationResult, percent, type Report } from './report.js';

function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4;position:sticky;top:0}code,pre{font:12px/1.4 ui-monospace,monospace}
pre{white-space:pre-wrap;background:#f8f8f8;padding:.5rem}.pass{color:#176f2c}.fail{color:#b00020;font-weight:bold}
.skip{color:#777}.missing{color:#9a6700}section{margin-top:2rem}`;

function row(o: OperationResult): string {
  const state = o.state === 'fail' ? 'FAIL' : o.state;
  const detail =
    o.state === 'skip' ? (o.reason ?? '') : `${o.requests} request(s), ${o.failures.length} failure(s)`;
  return [
    '<tr>',
    `<td class="${o.state}">${state}</td>`,
    `<td><code>${html(o.operationId)}</code></td>`,
    `<td><code>${html(`${o.method} ${o.path}`)}</code></td>`,
    `<td>${html(o.statuses.join(', '))}</td>`,
    `<td>${html(o.documented.produced.join(', '))}</td>`,
    `<td class="missing">${html(o.documented.notProduced.join(', '))}</td>`,
    `<td>${html(detail)}</td>`,
    '</tr>',
  ].join('');
}

function failure(f: Failure): string {
  const lines = [
    f.test ? `test: ${f.test}` : undefined,
    f.method ? `${f.method} ${f.url} → ${f.status}` : undefined,
    ...f.violations.map(
      (v) => `- ${v.kind}${v.path !== undefined ? ` at ${v.path || '(root)'}` : ''}: ${v.message}`,
    ),
    f.violations.length === 0 ? f.message : undefined,
    f.curl ? `reproduce: ${f.curl}` : undefined,
  ].filter((line) => line !== undefined);
  return `<h3>${html(f.operationId ?? '(no operation)')}</h3><pre>${html(lines.join('\n'))}</pre>`;
}

export function htmlReport(report: Report): string {
  const t = report.totals;
  const failures = [...report.operations.flatMap((o) => o.failures), ...report.unattributed];
  const skippedFiles = report.files.filter((f) => f.state === 'skipped');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>collab-conformance: ${html(report.baseUrl)}</title>
<style>${STYLE}</style></head><body>
<h1>collab-conformance run</h1>
<p>${html(report.baseUrl)} · ${html(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${report.only ? ` · --only ${html(report.only)}` : ''}</p>
<p><strong>${t.operations} operations: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped</strong> ·
tests ${report.tests.passed} passed, ${report.tests.failed} failed, ${report.tests.skipped} skipped ·
documented statuses produced: ${report.coverage.produced} of ${report.coverage.documented} (${percent(report.coverage.produced, report.coverage.documented)})</p>
<table><thead><tr><th>result</th><th>operation</th><th>request</th><th>statuses seen</th>
<th>documented, produced</th><th>documented, never produced</th><th>detail</th></tr></thead><tbody>
${report.operations.map(row).join('\n')}
</tbody></table>
${failures.length > 0 ? `<section><h2>Failures (${failures.length})</h2>${failures.map(failure).join('\n')}</section>` : ''}
${skippedFiles.length > 0 ? `<section><h2>Test files not run</h2><ul>${skippedFiles.map((f) => `<li><code>${html(f.file.slice(f.file.lastIndexOf('/test/') + 1))}</code>: ${html(f.reason)}</li>`).join('')}</ul></section>` : ''}
</body></html>
`;
}
