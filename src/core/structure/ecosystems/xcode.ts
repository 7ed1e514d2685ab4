// Xcode projects (`*.xcodeproj/project.pbxproj`) of applications: their native targets (apps,
// extensions, test bundles, frameworks) and what each depends on: the local Swift packages' products
// it links and the targets it embeds or tests. In a repository whose root is a Swift package (a
// library: Alamofire, SDWebImage) the Xcode projects build the same code, its tests or demos, and are
// not read; nor are example and demo projects.
import { DiscoveryContext, dirOf, isSamplePath, joinRel } from '../context';
import type { Target, TargetDependency, TargetKind } from '../types';

/** One object of the project file: its id, `isa` and body text. */
interface PbxObject {
  id: string;
  isa: string;
  body: string;
  line: number;
}

const APP_TYPES = /\.(application|app-extension|extensionkit-extension|watchkit2-extension|watchapp2|xpc-service|tool|application\.watchapp2-container|messages-extension)"?$/;
const TEST_TYPES = /\.(bundle\.unit-test|bundle\.ui-testing)"?$/;

export async function discoverXcode(ctx: DiscoveryContext): Promise<Target[]> {
  const out: Target[] = [];
  // A repository whose root is a Swift package is a library: its Xcode projects build the same code, its tests or its demos.
  if (ctx.has('Package.swift')) return out;
  const projects = ctx.files.filter((f) => f.endsWith('.xcodeproj/project.pbxproj') && !isSamplePath(f) && !/(^|\/)Pods\/|(^|\/)[^/]*(example|demo|sample)[^/]*\//i.test(f));
  if (projects.length === 0) return out;
  // Names of the repository's own Swift package targets: a linked product of the same name is one of them.
  const packageTargets = new Set<string>();
  for (const manifest of ctx.named('Package.swift')) {
    for (const m of ((await ctx.read(manifest)) ?? '').matchAll(/\.(?:target|executableTarget|binaryTarget)\s*\(\s*name:\s*"([^"]+)"/g)) packageTargets.add(m[1]);
  }
  const language = ctx.files.some((f) => f.endsWith('.swift')) ? 'swift' : 'objective-c';
  for (const pbxproj of projects) {
    const projectDir = dirOf(dirOf(pbxproj));
    if (ctx.has(joinRel(projectDir, 'Package.swift'))) continue;
    const text = await ctx.read(pbxproj);
    if (!text) continue;
    const objects = new Map(pbxObjects(text).map((o) => [o.id, o]));
    const natives = [...objects.values()].filter((o) => o.isa === 'PBXNativeTarget');
    const nameOf = (o: PbxObject) => field(o.body, 'name') ?? o.id;
    for (const t of natives) {
      const productType = field(t.body, 'productType') ?? '';
      const kind: TargetKind = TEST_TYPES.test(productType) ? 'test' : APP_TYPES.test(productType) ? 'app' : 'library';
      const scope = kind === 'test' ? 'test' : 'prod';
      const dependencies: TargetDependency[] = [];
      const evidence = (o: PbxObject) => `${pbxproj}:${o.line}`;
      for (const id of list(t.body, 'packageProductDependencies')) {
        const product = objects.get(id);
        const name = product ? field(product.body, 'productName') : undefined;
        if (!product || !name) continue;
        dependencies.push({ name, ...(packageTargets.has(name) ? { target: name } : {}), scope, evidence: evidence(product) });
      }
      for (const id of list(t.body, 'dependencies')) {
        const dep = objects.get(id);
        const other = dep ? objects.get(field(dep.body, 'target') ?? '') : undefined;
        if (!dep || !other || other.isa !== 'PBXNativeTarget') continue;
        dependencies.push({ name: nameOf(other), target: nameOf(other), scope, evidence: evidence(dep) });
      }
      // Its files: the folders Xcode keeps in sync with the target (Xcode 16); `dir` is where the project is, not what it owns.
      const folders = list(t.body, 'fileSystemSynchronizedGroups').map((id) => field(objects.get(id)?.body ?? '', 'path')).filter((x): x is string => !!x).map((x) => joinRel(projectDir, x));
      out.push({
        name: nameOf(t),
        ecosystem: 'xcode',
        kind,
        manifest: pbxproj,
        dir: projectDir,
        ...(folders.length ? { extraDirs: folders } : {}),
        language,
        dependencies,
        metadata: { productType: productType.replace(/^"|"$/g, ''), project: dirOf(pbxproj) },
      });
    }
  }
  return out;
}

/** The objects of a project file (`ID /* comment *\/ = { isa = X; … };`), each with its body, braces matched outside strings. */
export function pbxObjects(text: string): PbxObject[] {
  const out: PbxObject[] = [];
  const head = /(?:^|\n)\s*([0-9A-F]{24})(?:\s*\/\*[^*]*\*\/)?\s*=\s*\{/g;
  let line = 1;
  let counted = 0;
  for (let m = head.exec(text); m; m = head.exec(text)) {
    const start = m.index + /^\s*/.exec(m[0])![0].length;
    for (; counted < start; counted++) if (text.charCodeAt(counted) === 10) line++;
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let i = open;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      } else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    const body = text.slice(open + 1, i);
    const isa = /\bisa\s*=\s*(\w+)\s*;/.exec(body)?.[1];
    if (isa) out.push({ id: m[1], isa, body, line });
    // Nested objects are not listed in the project file: continue after this one.
    head.lastIndex = i;
  }
  return out;
}

/** A scalar field (`name = "NetNewsWire iOS";`, `productName = Account;`), unquoted. */
function field(body: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|[\\s{;])${key}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|[^;\\s]+)(?:\\s*/\\*[^*]*\\*/)?\\s*;`).exec(body);
  if (!m) return undefined;
  return m[1].startsWith('"') ? m[1].slice(1, -1).replace(/\\"/g, '"') : m[1];
}

/** The ids of a list field (`dependencies = ( ID /* … *\/, … );`). */
function list(body: string, key: string): string[] {
  const m = new RegExp(`(?:^|[\\s{;])${key}\\s*=\\s*\\(([^)]*)\\)`).exec(body);
  return m ? [...m[1].matchAll(/\b([0-9A-F]{24})\b/g)].map((x) => x[1]) : [];
}
