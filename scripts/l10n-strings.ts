// The UI strings of the extension: every `vscode.l10n.t('…')` message in src/vscode (their English
// text is the key of l10n/bundle.l10n.<locale>.json). `npm run l10n` writes l10n/bundle.l10n.json;
// test/unit/l10n.test.ts fails when a translation misses one.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const repoRoot = path.resolve(path.dirname(__filename), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Every message passed to `l10n.t(...)` as a literal, with where it is. */
export function l10nMessages(root = repoRoot): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(path.join(root, 'src/vscode'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 't'
        && ts.isPropertyAccessExpression(node.expression.expression) && node.expression.expression.name.text === 'l10n'
      ) {
        const arg = node.arguments[0];
        if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
          const { line } = source.getLineAndCharacterOfPosition(arg.getStart());
          if (!found.has(arg.text)) found.set(arg.text, `${path.relative(root, file)}:${line + 1}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  const messages = [...l10nMessages().keys()].sort();
  writeFileSync(
    path.join(repoRoot, 'l10n/bundle.l10n.json'),
    JSON.stringify(Object.fromEntries(messages.map((m) => [m, m])), null, 2) + '\n',
  );
  console.log(`${messages.length} messages in l10n/bundle.l10n.json`);
}
