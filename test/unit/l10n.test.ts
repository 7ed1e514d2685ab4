// Every string a person sees has its Simplified Chinese translation: the manifest's %keys% (package.nls
// files) and every vscode.l10n.t message of the extension (l10n bundles), placeholders intact.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { l10nMessages, repoRoot } from '../../scripts/l10n-strings';

const json = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, unknown>;
const placeholders = (s: string) => (s.match(/\{\d+\}|\$\([a-z-]+\)/g) ?? []).sort();

/** Every "%key%" string in package.json (the generated tool and setting blocks are English only). */
function manifestKeys(): string[] {
  const keys = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      const m = /^%(.+)%$/.exec(v);
      if (m) keys.add(m[1]);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(json('package.json'));
  return [...keys].sort();
}

describe('translations', () => {
  it('package.nls.json has every %key% of package.json, and nothing else', () => {
    const nls = json('package.nls.json');
    assert.deepEqual(manifestKeys(), Object.keys(nls).sort());
  });

  it('package.nls.zh-cn.json translates every manifest string', () => {
    const en = json('package.nls.json') as Record<string, string>;
    const zh = json('package.nls.zh-cn.json') as Record<string, string>;
    const missing = Object.keys(en).filter((k) => typeof zh[k] !== 'string' || !zh[k].trim());
    assert.deepEqual(missing, [], `untranslated manifest keys: ${missing.join(', ')}`);
    for (const [k, v] of Object.entries(en)) {
      assert.deepEqual(placeholders(zh[k]), placeholders(v), `placeholders of ${k}`);
      assert.deepEqual(
        zh[k].match(/\(command:[^)]+\)/g) ?? [],
        v.match(/\(command:[^)]+\)/g) ?? [],
        `command links of ${k}`,
      );
    }
  });

  it('l10n/bundle.l10n.zh-cn.json translates every vscode.l10n.t message, placeholders intact', () => {
    const zh = json('l10n/bundle.l10n.zh-cn.json') as Record<string, string>;
    const messages = l10nMessages();
    assert.ok(messages.size > 200, `found only ${messages.size} messages: is the extractor broken?`);
    const missing = [...messages].filter(([m]) => typeof zh[m] !== 'string' || !zh[m].trim()).map(([m, where]) =>
      `${where}: ${JSON.stringify(m)}`
    );
    assert.deepEqual(missing, [], `untranslated:\n${missing.join('\n')}`);
    for (const m of messages.keys()) {
      assert.deepEqual(placeholders(zh[m]), placeholders(m), `placeholders of ${JSON.stringify(m)}`);
    }
  });

  it('the English bundle lists the same messages (npm run l10n writes it)', () => {
    assert.deepEqual(Object.keys(json('l10n/bundle.l10n.json')).sort(), [...l10nMessages().keys()].sort());
  });
});
