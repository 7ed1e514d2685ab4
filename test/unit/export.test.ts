import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { main } from '../../src/cli/main';
import { BLOCK_BEGIN, BLOCK_END } from '../../src/core/domains/export/block';
import { catalog, exportTo, publish, seeded, type Ws } from './export-helpers';
import { citingRecipe, edit, frontMatterOf, readText, writeSource } from './freshness-helpers';
import { agent, human, tempWorkspace } from './knowledge-helpers';

/** The block of a file, markers included. */
function block(text: string): string {
  const start = text.indexOf(BLOCK_BEGIN);
  const end = text.indexOf(BLOCK_END);
  assert.ok(start >= 0 && end > start, `no block in:\n${text}`);
  return text.slice(start, end + BLOCK_END.length);
}

/** Every Markdown link of a file resolves to an existing recipe file. */
function assertLinksResolve(ws: Ws, file: string): string[] {
  const links = [...readText(ws, file).matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => decodeURI(m[1]));
  assert.ok(links.length > 0, `${file} links to no recipe`);
  for (const l of links) {
    assert.ok(existsSync(path.join(ws.root, path.dirname(file), l)), `${file} links to ${l}, which does not exist`);
  }
  return links;
}

test('each format, parsed back: AGENTS.md sections, Copilot applyTo, Claude paths, Cursor globs/alwaysApply/description, links to the recipe files', async () => {
  const ws = await seeded();
  try {
    const result = await exportTo(ws, { to: ['agents', 'copilot', 'claude', 'cursor'] });
    assert.equal(result.published, 4);
    assert.deepEqual(result.files.map((f: { path: string; action: string }) => `${f.action} ${f.path}`), [
      'create AGENTS.md',
      'create .github/copilot-instructions.md',
      'create .github/instructions/autosnippet-swift.instructions.md',
      'create .github/instructions/autosnippet-typescript.instructions.md',
      'create CLAUDE.md',
      'create .claude/rules/autosnippet-swift.md',
      'create .claude/rules/autosnippet-typescript.md',
      'create .cursor/rules/autosnippet.mdc',
      'create .cursor/rules/autosnippet-swift.mdc',
      'create .cursor/rules/autosnippet-typescript.mdc',
    ]);

    // AGENTS.md: no frontmatter; a section per language; rules as lines, patterns with their trigger.
    const agents = readText(ws, 'AGENTS.md');
    assert.ok(agents.startsWith(BLOCK_BEGIN), agents);
    assert.match(
      agents,
      /^### All code\n\nPatterns:\n\n- \*\*Three layers\*\* \(`@[\w-]+`\): The app is split into ui, domain and data; data never imports ui\. \(\[architecture\/layers\]\(\.autosnippet\/recipes\/architecture\/layers\.md\)\)$/m,
    );
    assert.match(
      agents,
      /^### TypeScript \(`\*\.ts`, `\*\.mts`, `\*\.cts`, `\*\.tsx`\)\n\nRules:\n\n- Call the network through getJson in src\/http\.ts, never fetch directly\. \(\[networking\/use-getjson\]\(\.autosnippet\/recipes\/networking\/use-getjson\.md\)\)$/m,
    );
    assert.match(
      agents,
      /^- \*\*Retry transient failures\*\* \(`@[\w-]+`\): Wrap calls that may fail transiently in withRetry\. \(\[networking\/retry\]/m,
    );
    assert.match(agents, /^### Swift \(`\*\.swift`\)\n\nRules:\n\n- Mark view models @MainActor\./m);
    assertLinksResolve(ws, 'AGENTS.md');

    // Copilot: repository-wide file has the language-neutral recipe; per-language files carry applyTo.
    const repoWide = readText(ws, '.github/copilot-instructions.md');
    assert.match(repoWide, /Three layers/);
    assert.doesNotMatch(repoWide, /getJson|MainActor/);
    assert.match(
      repoWide,
      /Language-specific recipes are in \.github\/instructions\/autosnippet-swift\.instructions\.md \(Swift\), \.github\/instructions\/autosnippet-typescript\.instructions\.md \(TypeScript\)\./,
    );
    const ts = frontMatterOf(readText(ws, '.github/instructions/autosnippet-typescript.instructions.md'));
    assert.deepEqual(ts.data, {
      applyTo: '**/*.ts,**/*.mts,**/*.cts,**/*.tsx',
      description: "This project's TypeScript rules and patterns, from AutoSnippet",
    });
    assert.match(ts.content, /getJson/);
    assert.match(ts.content, /Retry transient failures/, 'typescriptreact recipes go with TypeScript');
    assert.doesNotMatch(ts.content, /MainActor|Three layers/);
    assert.deepEqual(
      assertLinksResolve(ws, '.github/instructions/autosnippet-typescript.instructions.md')[0].split('/').slice(0, 3),
      ['..', '..', '.autosnippet'],
    );

    // Claude Code: CLAUDE.md plain; rules with a `paths` list.
    assert.equal(frontMatterOf(readText(ws, 'CLAUDE.md')).present, false, 'CLAUDE.md has no frontmatter');
    assert.deepEqual(frontMatterOf(readText(ws, '.claude/rules/autosnippet-swift.md')).data, { paths: ['**/*.swift'] });
    assertLinksResolve(ws, '.claude/rules/autosnippet-swift.md');

    // Cursor: one always-on rule, one auto-attached rule per language; strict YAML with real booleans.
    assert.deepEqual(frontMatterOf(readText(ws, '.cursor/rules/autosnippet.mdc')).data, {
      description: "This project's rules and patterns that apply to all code, from AutoSnippet",
      alwaysApply: true,
    });
    assert.deepEqual(frontMatterOf(readText(ws, '.cursor/rules/autosnippet-swift.mdc')).data, {
      description: "This project's Swift rules and patterns, from AutoSnippet",
      globs: '**/*.swift',
      alwaysApply: false,
    });
    assertLinksResolve(ws, '.cursor/rules/autosnippet-typescript.mdc');

    for (const f of result.files) assert.ok(f.chars <= f.budget, `${f.path}: ${f.chars} > ${f.budget}`);
  } finally {
    await ws.cleanup();
  }
});

test('re-export replaces only the marked block: hand-written text before and after it survives byte for byte, CRLF files stay CRLF', async () => {
  const ws = await seeded();
  try {
    const before = '# Agents guide\r\n\r\nRun `npm test` before you commit.\r\n';
    writeSource(ws, 'AGENTS.md', before);
    await exportTo(ws, { to: ['agents'] });
    const once = readText(ws, 'AGENTS.md');
    assert.ok(once.startsWith(before + '\r\n'), 'the text before is kept');
    assert.ok(!/[^\r]\n/.test(once), "the block follows the file's CRLF line endings");
    const after = '\r\n## Release\r\n\r\nTag with vX.Y.Z.\r\n';
    writeSource(ws, 'AGENTS.md', once + after);

    const again = await exportTo(ws, { to: ['agents'] });
    assert.equal(again.files[0].action, 'unchanged', 'nothing new: the file is not touched');

    await publish(ws, 'log-errors', {
      title: 'Log errors with context',
      summary: 'Log every caught error with the request id.',
      language: 'typescript',
      knowledgeType: 'code-standard',
    });
    const updated = await exportTo(ws, { to: ['agents'] });
    assert.equal(updated.files[0].action, 'update');
    const text = readText(ws, 'AGENTS.md');
    assert.ok(text.startsWith(before + '\r\n' + BLOCK_BEGIN), 'text before the block kept');
    assert.ok(text.endsWith(BLOCK_END + '\r\n' + after), 'text after the block kept');
    assert.equal(text.split('autosnippet:begin').length, 2, 'exactly one block');
    assert.match(block(text), /Log every caught error with the request id\./);
  } finally {
    await ws.cleanup();
  }
});

test('size budgets: a file stays within its budget, rules go in first, and it says how many were left out and how to get them', async () => {
  const ws = await tempWorkspace();
  try {
    for (let i = 0; i < 40; i++) {
      await citingRecipe(ws, `rule-${i}`, {
        title: `Rule number ${i}`,
        summary: `Always do thing ${i} the project way, because of reason ${i}.`,
        language: 'text',
        knowledgeType: 'code-standard',
        sources: [],
      });
    }
    for (let i = 0; i < 10; i++) {
      await citingRecipe(ws, `pattern-${i}`, {
        title: `Pattern ${i}`,
        summary: `How to build thing ${i}.`,
        language: 'text',
        knowledgeType: 'code-pattern',
        sources: [],
      });
    }
    const result = await exportTo(ws, { to: ['copilot'], maxChars: 2000 });
    const [file] = result.files;
    assert.equal(file.path, '.github/copilot-instructions.md');
    const text = readText(ws, file.path);
    assert.ok(text.length <= 2000, `${text.length} characters`);
    assert.equal(file.listed + file.omitted, 50);
    assert.ok(file.listed > 5, `listed ${file.listed}`);
    assert.doesNotMatch(text, /Pattern \d/, 'the rules fill the budget before any pattern');
    assert.match(
      text,
      new RegExp(
        `_${file.omitted} more published recipes are left out to keep this file short \\(${
          file.omitted - 10
        } rules, 10 patterns\\): the AutoSnippet MCP tools have them \\(\`autosnippet_context_search\``,
      ),
    );
    assert.match(result.hint, /did not fit/);

    const roomy = await exportTo(ws, { to: ['copilot'], maxChars: 20000 });
    assert.equal(roomy.files[0].omitted, 0);
    assert.doesNotMatch(readText(ws, file.path), /left out/);
  } finally {
    await ws.cleanup();
  }
});

test('damaged markers, links out of the workspace and big files are refused with a clear error; a CLAUDE.md linked to AGENTS.md is written once and stays a link', async () => {
  const ws = await seeded();
  const outside = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-outside-'));
  try {
    writeSource(ws, 'AGENTS.md', `# Guide\n\n${BLOCK_BEGIN}\nhalf a block\n`);
    const damaged = await catalog.invoke(ws, 'export_recipes', { to: ['agents'] }, human);
    assert.equal(damaged.ok, false);
    if (!damaged.ok) {
      assert.equal(damaged.error.code, 'EXPORT_BLOCK_DAMAGED');
      assert.match(damaged.error.message, /AGENTS\.md has 1 "autosnippet:begin" and 0 "autosnippet:end" markers/);
    }
    assert.equal(readText(ws, 'AGENTS.md'), `# Guide\n\n${BLOCK_BEGIN}\nhalf a block\n`, 'nothing written');

    rmSync(path.join(ws.root, 'AGENTS.md'));
    writeFileSync(path.join(outside, 'notes.md'), 'private\n');
    symlinkSync(path.join(outside, 'notes.md'), path.join(ws.root, 'CLAUDE.md'));
    const out = await exportTo(ws, { to: ['claude'] });
    const claude = out.files.find((f: { path: string }) => f.path === 'CLAUDE.md');
    assert.equal(claude.action, 'refused');
    assert.match(claude.note, /^CLAUDE\.md is a link to .*notes\.md, outside the workspace;/);
    assert.equal(readFileSync(path.join(outside, 'notes.md'), 'utf8'), 'private\n', 'nothing written outside');
    assert.ok(existsSync(path.join(ws.root, '.claude/rules/autosnippet-swift.md')), 'the other files were written');

    rmSync(path.join(ws.root, 'CLAUDE.md'));
    symlinkSync('AGENTS.md', path.join(ws.root, 'CLAUDE.md'));
    writeSource(ws, 'AGENTS.md', '# Guide\n');
    const both = await exportTo(ws, { to: ['agents', 'claude'] });
    assert.equal(
      both.files.find((f: { path: string }) => f.path === 'CLAUDE.md').note,
      'CLAUDE.md is a link to AGENTS.md, which this export writes.',
    );
    assert.ok(lstatSync(path.join(ws.root, 'CLAUDE.md')).isSymbolicLink(), 'the link is kept');
    assert.equal(readText(ws, 'AGENTS.md').split('autosnippet:begin').length, 2);

    writeSource(ws, 'AGENTS.md', 'x'.repeat(1024 * 1024 + 1));
    const big = await catalog.invoke(ws, 'export_recipes', { to: ['agents'] }, human);
    assert.equal(!big.ok && big.error.code, 'EXPORT_FILE_TOO_LARGE');
  } finally {
    rmSync(outside, { recursive: true, force: true });
    await ws.cleanup();
  }
});

test('only people export; a dry run writes nothing; a stale recipe is exported with a warning', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', 'export const get = (u: string) => fetch(u);\n');
    await publish(ws, 'get', {
      title: 'Use get',
      summary: 'Call get from src/http.ts.',
      language: 'typescript',
      knowledgeType: 'code-standard',
      sources: ['src/http.ts:1'],
    });
    const byAgent = await catalog.invoke(ws, 'export_recipes', { to: ['agents'] }, agent);
    assert.equal(!byAgent.ok && byAgent.error.code, 'PERMISSION_DENIED');
    assert.ok(!catalog.agentTools.some((t) => t.name === 'export_recipes'));

    const dry = await exportTo(ws, { to: ['agents'], dryRun: true });
    assert.equal(dry.files[0].action, 'create');
    assert.match(dry.files[0].text, /Call get from src\/http\.ts\./);
    assert.ok(!existsSync(path.join(ws.root, 'AGENTS.md')), 'a dry run writes nothing');

    edit(ws, 'src/http.ts', 'fetch(u)', 'fetch(u, { cache: "no-store" })');
    await exportTo(ws, { to: ['agents'] });
    assert.match(
      readText(ws, 'AGENTS.md'),
      /Call get from src\/http\.ts\. \(\[networking\/get\]\([^)]+\)\) \(stale: the code it cites changed since it was reviewed; check that code first\)/,
    );
  } finally {
    await ws.cleanup();
  }
});

test('autosnippet export --to: writes the asked targets, --dry-run writes nothing, a bad target is a usage error (exit 2)', async () => {
  const ws = await seeded();
  try {
    const run = async (...args: string[]) => {
      const out = { stdout: '', stderr: '' };
      const code = await main(['--workspace', ws.root, 'export', ...args], {
        stdout: (s) => void (out.stdout += s),
        stderr: (s) => void (out.stderr += s),
      });
      return { code, ...out };
    };
    const dry = await run('--to', 'agents,cursor', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^would create {2}AGENTS\.md {2}4 recipes, \d+\/12000 characters$/m);
    assert.match(dry.stdout, /^would create {2}\.cursor\/rules\/autosnippet-swift\.mdc {2}1 recipes/m);
    assert.ok(!existsSync(path.join(ws.root, 'AGENTS.md')));

    const real = await run('--to=agents');
    assert.equal(real.code, 0, real.stderr);
    assert.match(real.stdout, /^created {7}AGENTS\.md/m);
    assert.ok(existsSync(path.join(ws.root, 'AGENTS.md')));
    assert.match((await run('--to', 'agents')).stdout, /^unchanged {5}AGENTS\.md/m);

    const bad = await run('--to', 'windsurf');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--to takes agents, copilot, claude, cursor; got "windsurf"/);
    assert.equal((await run()).code, 2, 'no --to');
  } finally {
    await ws.cleanup();
  }
});

test('an export with nothing published creates no file, and empties the block of a file that has one', async () => {
  const ws = await tempWorkspace();
  try {
    mkdirSync(path.join(ws.root, '.github'), { recursive: true });
    writeSource(ws, '.github/copilot-instructions.md', `Be brief.\n\n${BLOCK_BEGIN}\n- an old recipe\n${BLOCK_END}\n`);
    const result = await exportTo(ws, { to: ['copilot', 'agents'] });
    assert.deepEqual(result.files.map((f: { path: string; action: string }) => `${f.action} ${f.path}`), [
      'update .github/copilot-instructions.md',
    ]);
    assert.match(result.hint, /no published recipes/);
    const text = readText(ws, '.github/copilot-instructions.md');
    assert.ok(text.startsWith('Be brief.\n\n'));
    assert.match(text, /No published recipes apply here yet\./);
    assert.doesNotMatch(text, /an old recipe/);
    assert.ok(!existsSync(path.join(ws.root, 'AGENTS.md')));
  } finally {
    await ws.cleanup();
  }
});

test('autosnippet export in a folder without .autosnippet/ says there is nothing to export and writes nothing (no folder, no audit line)', async () => {
  const ws = await tempWorkspace();
  try {
    const out = { stdout: '', stderr: '' };
    const code = await main(['--workspace', ws.root, 'export', '--to', 'agents'], {
      stdout: (s) => void (out.stdout += s),
      stderr: (s) => void (out.stderr += s),
    });
    assert.equal(code, 0, out.stderr);
    assert.match(out.stderr, /^Nothing to export: .* has no \.autosnippet\/ folder, so no published recipes\.$/m);
    assert.ok(!existsSync(path.join(ws.root, '.autosnippet')), 'no .autosnippet/ was created');
    assert.ok(!existsSync(path.join(ws.root, 'AGENTS.md')));
  } finally {
    await ws.cleanup();
  }
});
