import { factsOf } from '../facts';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

/** Dependency or import name → what it tells about the stack. */
const FRAMEWORKS: Record<string, string> = {
  react: 'React', next: 'Next.js', vue: 'Vue', svelte: 'Svelte', '@angular/core': 'Angular', express: 'Express', fastify: 'Fastify',
  '@nestjs/core': 'NestJS', koa: 'Koa', electron: 'Electron', jest: 'Jest', vitest: 'Vitest', mocha: 'Mocha', ava: 'AVA', 'node:test': 'node:test',
  playwright: 'Playwright', '@playwright/test': 'Playwright', cypress: 'Cypress', webpack: 'webpack', vite: 'Vite', esbuild: 'esbuild', rollup: 'Rollup',
  zod: 'zod', ajv: 'Ajv', prisma: 'Prisma', '@prisma/client': 'Prisma', typeorm: 'TypeORM', graphql: 'GraphQL', tailwindcss: 'Tailwind CSS',
  'sql.js': 'sql.js', '@modelcontextprotocol/sdk': 'MCP SDK', redux: 'Redux', '@reduxjs/toolkit': 'Redux Toolkit', rxjs: 'RxJS',
  django: 'Django', flask: 'Flask', fastapi: 'FastAPI', pydantic: 'Pydantic', sqlalchemy: 'SQLAlchemy', pytest: 'pytest', celery: 'Celery', numpy: 'NumPy', pandas: 'pandas',
  'github.com/gin-gonic/gin': 'Gin', 'github.com/labstack/echo/v4': 'Echo', 'gorm.io/gorm': 'GORM', 'github.com/spf13/cobra': 'Cobra', 'github.com/stretchr/testify': 'testify',
  tokio: 'Tokio', 'actix-web': 'Actix Web', axum: 'Axum', serde: 'Serde', clap: 'clap', diesel: 'Diesel', anyhow: 'anyhow', thiserror: 'thiserror',
  'org.springframework.boot:spring-boot-starter': 'Spring Boot', 'org.springframework.boot:spring-boot-starter-web': 'Spring Boot', 'io.ktor:ktor-server-core': 'Ktor', 'junit:junit': 'JUnit 4', 'org.junit.jupiter:junit-jupiter': 'JUnit 5',
  SwiftUI: 'SwiftUI', UIKit: 'UIKit', AppKit: 'AppKit', Combine: 'Combine', XCTest: 'XCTest', Testing: 'Swift Testing', Alamofire: 'Alamofire', RxSwift: 'RxSwift', SwiftData: 'SwiftData', CoreData: 'Core Data',
};

/** Dimension 6, project profile: exactly one candidate with stack, targets, frameworks and commands. */
export class ProjectProfileAnalyzer implements Analyzer {
  private readonly languages = new Map<string, { files: number; bytes: number }>();
  private readonly imported = new Map<string, { files: number; first: string }>();

  visit(file: SourceFile): void {
    if (file.generated) return;
    const l = this.languages.get(file.language) ?? { files: 0, bytes: 0 };
    l.files++;
    l.bytes += file.bytes;
    this.languages.set(file.language, l);
    const seen = new Set<string>();
    for (const imp of factsOf(file).imports) {
      const name = FRAMEWORKS[imp.spec] ? imp.spec : imp.spec.startsWith('@') ? imp.spec.split('/').slice(0, 2).join('/') : imp.spec.split('/')[0];
      if (!FRAMEWORKS[name] || seen.has(name)) continue;
      seen.add(name);
      const e = this.imported.get(name) ?? { files: 0, first: `${file.path}:${imp.line}` };
      e.files++;
      this.imported.set(name, e);
    }
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const totalBytes = [...this.languages.values()].reduce((n, l) => n + l.bytes, 0);
    if (totalBytes === 0 && ctx.structure.targets.length === 0) return [];
    const langs = [...this.languages.entries()].sort((a, b) => b[1].bytes - a[1].bytes || (a[0] < b[0] ? -1 : 1));
    const targets = ctx.structure.targets;
    const frameworks = new Map<string, string>();
    for (const t of targets) {
      for (const d of t.dependencies) if (FRAMEWORKS[d.name] && d.evidence && !frameworks.has(FRAMEWORKS[d.name])) frameworks.set(FRAMEWORKS[d.name], d.evidence);
      const engines = t.metadata.engines as Record<string, unknown> | undefined;
      if (engines && typeof engines === 'object' && 'vscode' in engines) frameworks.set('VS Code extension API', `${t.manifest}:1`);
    }
    for (const [name, e] of [...this.imported.entries()].sort((a, b) => b[1].files - a[1].files)) if (!frameworks.has(FRAMEWORKS[name])) frameworks.set(FRAMEWORKS[name], e.first);
    const commands = await this.commands(ctx);
    const sources = [...new Set([...targets.slice(0, 3).map((t) => `${t.manifest}:1`), ...commands.map((c) => c.source), ...[...frameworks.values()].slice(0, 4)])].slice(0, 10);
    const fam: Family | undefined = ctx.primary;
    const ecosystems = Object.keys(ctx.structure.ecosystems).join(', ');
    const code = [
      `Languages: ${langs.map(([l]) => l).sort().join(', ') || 'none detected'}`,
      `Ecosystems: ${Object.keys(ctx.structure.ecosystems).sort().join(', ') || 'no build manifest'}`,
      `Targets: ${targets.slice(0, 20).map((t) => `${t.name} (${t.kind})`).join(', ')}${targets.length > 20 ? `, … ${targets.length - 20} more` : ''}`,
      `Frameworks and tools: ${[...frameworks.keys()].sort().join(', ') || 'none detected'}`,
      ...commands.map((c) => `${c.label}: ${c.command}`),
    ].join('\n');
    return [
      {
        title: 'Project profile: stack, targets, build and test commands',
        knowledgeType: 'project-profile',
        dimension: 'project-profile',
        language: fam ? languageOf(fam, ctx) : 'text',
        category: 'project',
        summary: `Languages by size: ${langs.slice(0, 5).map(([l, s]) => `${l} ${Math.round((s.bytes / Math.max(1, totalBytes)) * 100)} %`).join(', ') || 'none'}. ${targets.length} target${targets.length === 1 ? '' : 's'}${ecosystems ? ` (${ecosystems})` : ''}. ${frameworks.size ? `Uses ${[...frameworks.keys()].slice(0, 8).join(', ')}.` : ''} ${commands.length ? `Build and test with ${commands.slice(0, 3).map((c) => `\`${c.command}\``).join(', ')}.` : ''}`.replace(/\s+/g, ' ').trim(),
        code,
        reasoning: { whyStandard: 'Read from the build manifests, CI workflows and the scanned sources.', sources: sources.length ? sources : [`${ctx.listing[0] ?? 'README.md'}:1`], confidence: 0.9 },
        tags: ['project-profile', ...Object.keys(ctx.structure.ecosystems)],
      },
    ];
  }

  private async commands(ctx: AnalysisContext): Promise<{ label: string; command: string; source: string }[]> {
    const out: { label: string; command: string; source: string }[] = [];
    const root = ctx.structure.targets.find((t) => t.dir === '' && (t.ecosystem === 'npm' || t.ecosystem === 'pnpm' || t.ecosystem === 'yarn'));
    const rootPkg = ctx.listing.includes('package.json') ? await ctx.read('package.json') : undefined;
    if (rootPkg) {
      try {
        const json = JSON.parse(rootPkg) as { scripts?: Record<string, string>; packageManager?: string };
        const pm = root?.ecosystem === 'pnpm' || json.packageManager?.startsWith('pnpm') ? 'pnpm' : root?.ecosystem === 'yarn' || json.packageManager?.startsWith('yarn') || ctx.listing.includes('yarn.lock') ? 'yarn' : 'npm';
        for (const s of ['build', 'test', 'lint', 'typecheck']) {
          if (!json.scripts?.[s]) continue;
          const line = rootPkg.split('\n').findIndex((l) => l.includes(`"${s}"`)) + 1;
          out.push({ label: s[0].toUpperCase() + s.slice(1), command: s === 'test' && pm === 'npm' ? 'npm test' : `${pm} run ${s}`, source: `package.json:${line || 1}` });
        }
      } catch {
        // A broken package.json is reported by structure.
      }
    }
    const eco = ctx.structure.ecosystems;
    const add = (label: string, command: string, source: string) => {
      if (!out.some((o) => o.label === label)) out.push({ label, command, source });
    };
    const manifest = (e: string) => ctx.structure.targets.find((t) => t.ecosystem === e)?.manifest ?? '';
    if (eco.cargo) (add('Build', 'cargo build', `${manifest('cargo')}:1`), add('Test', 'cargo test', `${manifest('cargo')}:1`));
    if (eco.go) (add('Build', 'go build ./...', `${manifest('go')}:1`), add('Test', 'go test ./...', `${manifest('go')}:1`));
    if (eco.swift) (add('Build', 'swift build', `${manifest('swift')}:1`), add('Test', 'swift test', `${manifest('swift')}:1`));
    if (eco.gradle) {
      const gw = ctx.listing.includes('gradlew') ? './gradlew' : 'gradle';
      add('Build', `${gw} build`, `${manifest('gradle')}:1`);
      add('Test', `${gw} test`, `${manifest('gradle')}:1`);
    }
    if (eco.maven) (add('Build', 'mvn package', `${manifest('maven')}:1`), add('Test', 'mvn test', `${manifest('maven')}:1`));
    if (eco.python && ctx.structure.targets.some((t) => t.dependencies.some((d) => d.name === 'pytest'))) add('Test', 'pytest', `${manifest('python')}:1`);
    const makefile = ctx.listing.includes('Makefile') ? await ctx.read('Makefile') : undefined;
    if (makefile) {
      const lines = makefile.split('\n');
      for (const target of ['build', 'test', 'lint']) {
        const i = lines.findIndex((l) => new RegExp(`^${target}\\s*:`).test(l));
        if (i >= 0) add(target[0].toUpperCase() + target.slice(1), `make ${target}`, `Makefile:${i + 1}`);
      }
    }
    for (const wf of ctx.listing.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f)).slice(0, 3)) {
      const text = await ctx.read(wf);
      if (!text) continue;
      const lines = text.split('\n');
      const i = lines.findIndex((l) => /^\s*(?:-\s*)?run:\s*\S/.test(l) && /\b(test|build|lint|check)\b/.test(l));
      if (i >= 0) add('CI', lines[i].replace(/^\s*(?:-\s*)?run:\s*/, '').trim().slice(0, 120), `${wf}:${i + 1}`);
    }
    return out;
  }
}
