import { pathToFileURL } from 'node:url';
import { stableHash } from './baseline';
import type { ScanResult } from './engine';
import type { GuardRule, Severity, Violation } from './rule';

export type ReportFormat = 'text' | 'json' | 'sarif';

const LABEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'hint' };

/** ESLint-"stylish"-like text: violations grouped by file, then a summary line. With a baseline, only new findings. */
export function textReport(scan: ScanResult): string {
  const lines: string[] = [];
  const shown = scan.baseline ? scan.violations.filter((v) => v.baselineState !== 'unchanged') : scan.violations;
  const byFile = groupByFile(shown);
  for (const [file, vs] of byFile) {
    lines.push(file);
    const pos = vs.map((v) => `${v.start.line}:${v.start.column}`);
    const w = Math.max(...pos.map((p) => p.length));
    vs.forEach((v, i) =>
      lines.push(`  ${pos[i].padEnd(w)}  ${LABEL[v.severity].padEnd(7)}  ${v.message}  ${v.ruleId}`)
    );
    lines.push('');
  }
  for (const p of scan.problems) lines.push(`config: ${p.message}${p.hint ? ` (${p.hint})` : ''}`);
  for (const s of scan.stopped) lines.push(`stopped: ${s.ruleId} on ${s.path}: ${s.detail}`);
  const c = scan.baseline ? scan.newCounts : scan.counts;
  const total = c.error + c.warning + c.info + c.hint;
  const summary = `${total} ${scan.baseline ? 'new ' : ''}problem${total === 1 ? '' : 's'} (${c.error} error${
    c.error === 1 ? '' : 's'
  }, ${c.warning} warning${c.warning === 1 ? '' : 's'}, ${c.info} info, ${c.hint} hint${
    c.hint === 1 ? '' : 's'
  }) in ${scan.files} file${scan.files === 1 ? '' : 's'}`;
  lines.push(total ? `✖ ${summary}` : `✔ ${summary}`);
  const b = scan.baseline;
  if (b) {
    const baselined = b.unchanged - b.reviewed;
    if (baselined || !b.reviewed) {
      lines.push(
        `  ${baselined} finding${
          baselined === 1 ? '' : 's'
        } recorded in ${b.file} not shown (--baseline ignore shows them)`,
      );
    }
    if (b.reviewed) {
      lines.push(
        `  ${b.reviewed} finding${
          b.reviewed === 1 ? '' : 's'
        } marked reviewed not shown (--baseline ignore shows them)`,
      );
    }
    if (b.absent.length) {
      lines.push(
        `  ${b.absent.length} baselined finding${
          b.absent.length === 1 ? ' is' : 's are'
        } gone: run autosnippet guard --baseline write to drop ${
          b.absent.length === 1 ? 'it' : 'them'
        } from the baseline`,
      );
    }
  }
  const kinds = Object.entries(scan.notChecked ?? {});
  if (kinds.length) {
    lines.push(
      `  not checked: ${kinds.map(([k, n]) => `${n} ${k}`).join(', ')} file${
        kinds.reduce((a, [, n]) => a + (n ?? 0), 0) === 1 ? '' : 's'
      } (setting autosnippet.guard.skipKinds)`,
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * The scan as JSON. `counts` are the findings that fail a CI run: the new ones when the project has a
 * baseline (as the text report's "N new problems" says), all of them otherwise; `baselinedCounts`
 * are those the baseline holds (reviewed ones included) and `totalCounts` both.
 */
export function jsonReport(scan: ScanResult): string {
  const baselinedCounts = Object.fromEntries(
    Object.entries(scan.counts).map(([s, n]) => [s, n - scan.newCounts[s as Severity]]),
  ) as Record<Severity, number>;
  return JSON.stringify(
    {
      root: scan.root,
      files: scan.files,
      counts: scan.newCounts,
      baselinedCounts,
      totalCounts: scan.counts,
      ...(scan.baseline ? { newCounts: scan.newCounts, baseline: scan.baseline } : {}),
      violations: scan.violations.map(({ startOffset: _s, endOffset: _e, lineText: _l, ...v }) => v),
      stopped: scan.stopped,
      skipped: scan.skipped,
      notChecked: scan.notChecked,
      problems: scan.problems,
    },
    null,
    2,
  ) + '\n';
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
  hint: 'note',
};

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
      help: {
        text: r ? `${r.why}\n\nFix: ${r.suggestion}` : id,
        markdown: r ? `${r.why}\n\n**Fix:** ${r.suggestion}` : id,
      },
      defaultConfiguration: { level: SARIF_LEVEL[r?.severity ?? 'warning'] },
      properties: { tags: r?.tags ?? [], origin: r?.origin ?? 'unknown', source: r?.source ?? '' },
    };
  });
  const index = new Map(used.map((id, i) => [id, i]));
  const results = scan.violations.map((v) => {
    const location = { uri: encodeURI(v.path ?? ''), uriBaseId: 'SRCROOT' };
    const region = {
      startLine: v.start.line,
      startColumn: v.start.column,
      endLine: v.end.line,
      endColumn: v.end.column,
      snippet: { text: v.matchedText },
    };
    return {
      ruleId: v.ruleId,
      ruleIndex: index.get(v.ruleId)!,
      level: SARIF_LEVEL[v.severity],
      message: { text: `${v.message} ${v.suggestion}` },
      locations: [{ physicalLocation: { artifactLocation: location, region } }],
      partialFingerprints: {
        'autosnippetGuard/v2': v.fingerprint ?? stableHash(`${v.ruleId}|${v.path}|${v.matchedText}`),
      },
      ...(scan.baseline ? { baselineState: v.baselineState ?? 'new' } : {}),
      // A person judged it intended: a suppression with their reason, as SARIF viewers show it.
      ...(scan.baseline && v.reviewed !== undefined
        ? { suppressions: [{ kind: 'external', status: 'accepted', justification: v.reviewed }] }
        : {}),
      ...(v.fix !== undefined
        ? {
          fixes: [{
            description: { text: `Replace with "${v.fix}"` },
            // A fix that reaches past the match (a statement added to the body) says its span in characters.
            artifactChanges: [{
              artifactLocation: location,
              replacements: [{
                deletedRegion: v.fixLength !== undefined
                  ? { charOffset: v.startOffset, charLength: v.fixLength }
                  : {
                    startLine: v.start.line,
                    startColumn: v.start.column,
                    endLine: v.end.line,
                    endColumn: v.end.column,
                  },
                insertedContent: { text: v.fix },
              }],
            }],
          }],
        }
        : {}),
    };
  });
  // Findings of the baseline that this run no longer reports: SARIF's `absent` results.
  const absent = (scan.baseline?.absent ?? []).map((a) => ({
    ruleId: a.rule,
    ...(index.has(a.rule) ? { ruleIndex: index.get(a.rule)! } : {}),
    kind: 'pass',
    level: 'none',
    message: { text: `Fixed since the baseline: ${a.text}` },
    locations: [{
      physicalLocation: {
        artifactLocation: { uri: encodeURI(a.path), uriBaseId: 'SRCROOT' },
        region: { startLine: a.line },
      },
    }],
    partialFingerprints: { 'autosnippetGuard/v2': a.fingerprint },
    baselineState: 'absent',
  }));
  return JSON.stringify(
    {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [{
        tool: {
          driver: {
            name: 'AutoSnippet Guard',
            semanticVersion: toolVersion,
            version: toolVersion,
            informationUri: 'https://github.com/autosnippet/autosnippet',
            rules: descriptors,
          },
        },
        originalUriBaseIds: {
          SRCROOT: { uri: pathToFileURL(scan.root.endsWith('/') ? scan.root : scan.root + '/').href },
        },
        columnKind: 'utf16CodeUnits',
        results: [...results, ...absent],
        invocations: [{
          executionSuccessful: scan.problems.length === 0,
          toolConfigurationNotifications: scan.problems.map((p) => ({
            level: 'error',
            message: { text: p.message },
            ...(p.ruleId ? { descriptor: { id: p.ruleId } } : {}),
          })),
          toolExecutionNotifications: scan.stopped.map((s) => ({
            level: 'warning',
            message: { text: `${s.ruleId} stopped on ${s.path}: ${s.detail}` },
          })),
        }],
      }],
    },
    null,
    2,
  ) + '\n';
}

function groupByFile(vs: Violation[]): Map<string, Violation[]> {
  const m = new Map<string, Violation[]>();
  for (const v of vs) {
    const k = v.path ?? '(text)';
    let list = m.get(k);
    if (!list) m.set(k, list = []);
    list.push(v);
  }
  return m;
}
