import { pathToFileURL } from 'node:url';
import type { GuardRule, Severity, Violation } from './rule';
import type { ScanResult } from './engine';

export type ReportFormat = 'text' | 'json' | 'sarif';

const LABEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'hint' };

/** ESLint-"stylish"-like text: violations grouped by file, then a summary line. */
export function textReport(scan: ScanResult): string {
  const lines: string[] = [];
  const byFile = groupByFile(scan.violations);
  for (const [file, vs] of byFile) {
    lines.push(file);
    const pos = vs.map((v) => `${v.start.line}:${v.start.column}`);
    const w = Math.max(...pos.map((p) => p.length));
    vs.forEach((v, i) => lines.push(`  ${pos[i].padEnd(w)}  ${LABEL[v.severity].padEnd(7)}  ${v.message}  ${v.ruleId}`));
    lines.push('');
  }
  for (const p of scan.problems) lines.push(`config: ${p.message}${p.hint ? ` (${p.hint})` : ''}`);
  for (const s of scan.stopped) lines.push(`stopped: ${s.ruleId} on ${s.path}: ${s.detail}`);
  const c = scan.counts;
  const total = c.error + c.warning + c.info + c.hint;
  const summary = `${total} problem${total === 1 ? '' : 's'} (${c.error} error${c.error === 1 ? '' : 's'}, ${c.warning} warning${c.warning === 1 ? '' : 's'}, ${c.info} info, ${c.hint} hint${c.hint === 1 ? '' : 's'}) in ${scan.files} file${scan.files === 1 ? '' : 's'}`;
  lines.push(total ? `✖ ${summary}` : `✔ ${summary}`);
  return lines.join('\n') + '\n';
}

export function jsonReport(scan: ScanResult): string {
  return JSON.stringify({
    root: scan.root,
    files: scan.files,
    counts: scan.counts,
    violations: scan.violations.map(({ startOffset: _s, endOffset: _e, ...v }) => v),
    stopped: scan.stopped,
    skipped: scan.skipped,
    problems: scan.problems,
  }, null, 2) + '\n';
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

/** SARIF 2.1.0, as GitHub code scanning and other dashboards read it. */
export function sarifReport(scan: ScanResult, rules: GuardRule[], toolVersion: string): string {
  const used = [...new Set(scan.violations.map((v) => v.ruleId))];
  const byId = new Map(rules.map((r) => [r.id, r]));
  const descriptors = used.map((id) => {
    const r = byId.get(id);
    return {
      id,
      name: id.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')),
      shortDescription: { text: r?.message ?? id },
      fullDescription: { text: r?.why ?? id },
      help: { text: r ? `${r.why}\n\nFix: ${r.suggestion}` : id, markdown: r ? `${r.why}\n\n**Fix:** ${r.suggestion}` : id },
      defaultConfiguration: { level: SARIF_LEVEL[r?.severity ?? 'warning'] },
      properties: { tags: r?.tags ?? [], origin: r?.origin ?? 'unknown', source: r?.source ?? '' },
    };
  });
  const index = new Map(used.map((id, i) => [id, i]));
  const results = scan.violations.map((v) => {
    const location = { uri: encodeURI(v.path ?? ''), uriBaseId: 'SRCROOT' };
    const region = { startLine: v.start.line, startColumn: v.start.column, endLine: v.end.line, endColumn: v.end.column, snippet: { text: v.matchedText } };
    return {
      ruleId: v.ruleId,
      ruleIndex: index.get(v.ruleId)!,
      level: SARIF_LEVEL[v.severity],
      message: { text: `${v.message} ${v.suggestion}` },
      locations: [{ physicalLocation: { artifactLocation: location, region } }],
      partialFingerprints: { 'autosnippetGuard/v1': fingerprint(`${v.ruleId}|${v.path}|${v.matchedText}`) },
      ...(v.fix !== undefined ? {
        fixes: [{
          description: { text: `Replace with "${v.fix}"` },
          artifactChanges: [{ artifactLocation: location, replacements: [{ deletedRegion: { startLine: v.start.line, startColumn: v.start.column, endLine: v.end.line, endColumn: v.end.column }, insertedContent: { text: v.fix } }] }],
        }],
      } : {}),
    };
  });
  return JSON.stringify({
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'AutoSnippet Guard', semanticVersion: toolVersion, version: toolVersion, informationUri: 'https://github.com/autosnippet/autosnippet', rules: descriptors } },
      originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(scan.root.endsWith('/') ? scan.root : scan.root + '/').href } },
      columnKind: 'utf16CodeUnits',
      results,
      invocations: [{
        executionSuccessful: scan.problems.length === 0,
        toolConfigurationNotifications: scan.problems.map((p) => ({ level: 'error', message: { text: p.message }, ...(p.ruleId ? { descriptor: { id: p.ruleId } } : {}) })),
        toolExecutionNotifications: scan.stopped.map((s) => ({ level: 'warning', message: { text: `${s.ruleId} stopped on ${s.path}: ${s.detail}` } })),
      }],
    }],
  }, null, 2) + '\n';
}

function groupByFile(vs: Violation[]): Map<string, Violation[]> {
  const m = new Map<string, Violation[]>();
  for (const v of vs) {
    const k = v.path ?? '(text)';
    let list = m.get(k);
    if (!list) m.set(k, (list = []));
    list.push(v);
  }
  return m;
}

/** FNV-1a, hex: a stable fingerprint that survives line moves. */
function fingerprint(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
