// Xcode projects (`*.xcodeproj/project.pbxproj`): their native targets (apps, extensions, test
// bundles, frameworks, demo apps) and what each depends on: the local Swift packages' products it
// links, the frameworks of this repository it links, and the targets it embeds or tests. Beside a
// root Swift package (a library) an Xcode target of the same name as a
// package target builds the same code and is the package's; the others (tests, demos) are listed.
import { posix } from 'node:path';
import { dirOf, DiscoveryContext, joinRel } from '../context';
import type { Target, TargetDependency, TargetKind } from '../types';

/** One object of the project file: its id, `isa` and body text. */
interface PbxObject {
  id: string;
  isa: string;
  body: string;
  line: number;
}

const APP_TYPES =
  /\.(application|app-extension|extensionkit-extension|watchkit2-extension|watchapp2|xpc-service|tool|application\.watchapp2-container|messages-extension)"?$/;
const TEST_TYPES = /\.(bundle\.unit-test|bundle\.ui-testing)"?$/;

export async function discoverXcode(ctx: DiscoveryContext): Promise<Target[]> {
  const out: Target[] = [];
  const projects = ctx.files.filter((f) => f.endsWith('.xcodeproj/project.pbxproj') && !/(^|\/)Pods\//.test(f));
  if (projects.length === 0) return out;
  // Names of the repository's own Swift package targets: a linked product of the same name is one of them.
  const packageTargets = new Set<string>();
  for (const manifest of ctx.named('Package.swift', true)) {
    // Test targets too (an Xcode `LibTests` target building the package's `.testTarget( // dev` LibTests), past line comments.
    for (const m of ((await ctx.read(manifest)) ?? '').matchAll(
      /\.(?:target|executableTarget|binaryTarget|testTarget)\s*\((?:\s*\/\/[^\n]*)*\s*name:\s*"([^"]+)"/g,
    )) packageTargets.add(m[1]);
  }
  const rootPackage = ctx.has('Package.swift');
  const nameOf = (o: PbxObject) => field(o.body, 'name') ?? o.id;
  // Every project first: an example project links the frameworks another project of the repository builds.
  const parsed: { pbxproj: string; projectDir: string; objects: Map<string, PbxObject>; natives: PbxObject[] }[] = [];
  for (const pbxproj of projects) {
    const projectDir = dirOf(dirOf(pbxproj));
    // A project inside a Swift package's own folder (other than the root's) is that package's.
    if (projectDir !== '' && ctx.has(joinRel(projectDir, 'Package.swift'))) continue;
    const text = await ctx.read(pbxproj);
    if (!text) continue;
    const objects = new Map(pbxObjects(text).map((o) => [o.id, o]));
    parsed.push({
      pbxproj,
      projectDir,
      objects,
      natives: [...objects.values()].filter((o) => o.isa === 'PBXNativeTarget'),
    });
  }
  const listed = (t: PbxObject) => !(rootPackage && packageTargets.has(nameOf(t)));
  const targetNames = new Set(parsed.flatMap((p) => p.natives.filter(listed).map(nameOf)));
  // Framework targets by product name, with the platform they build for (`Lib iOS`, `Lib macOS`, `Lib tvOS`, `Lib watchOS` all make Lib.framework).
  const frameworks = parsed.flatMap((p) =>
    p.natives.filter((t) => listed(t) && /\.framework"?$/.test(field(t.body, 'productType') ?? '')).map((t) => ({
      product: productOf(p.objects, t),
      name: nameOf(t),
      sdk: sdkOf(p.objects, t),
    }))
  );
  /** The target a linked `X.framework` of another project is: the framework target for the same platform, else a package target of that name. */
  const linkedFramework = (product: string, sdk: string | undefined) => {
    const same = frameworks.filter((f) => f.product === product);
    return (same.find((f) => f.sdk !== undefined && f.sdk === sdk) ?? (same.length === 1 ? same[0] : undefined))?.name
      ?? (packageTargets.has(product) ? product : undefined);
  };
  const pods = await podfileLinks(ctx, packageTargets, targetNames);
  for (const { pbxproj, projectDir, objects, natives } of parsed) {
    // The native target that builds each product file of this project (`productReference`).
    const producerOf = new Map(natives.map((t) => [field(t.body, 'productReference') ?? '', t]));
    // The group each file or group sits in, to resolve `<group>`-relative paths.
    const parents = new Map<string, string>();
    for (const o of objects.values()) {
      if (/Group$/.test(o.isa)) { for (const id of list(o.body, 'children')) parents.set(id, o.id); }
    }
    for (const t of natives) {
      // Beside a root package, the Xcode target of a package target's name builds the same code.
      if (!listed(t)) continue;
      const sdk = sdkOf(objects, t);
      const productType = field(t.body, 'productType') ?? '';
      const kind: TargetKind = TEST_TYPES.test(productType) ? 'test' : APP_TYPES.test(productType) ? 'app' : 'library';
      const scope = kind === 'test' ? 'test' : 'prod';
      const dependencies: TargetDependency[] = [];
      const evidence = (o: PbxObject) => `${pbxproj}:${o.line}`;
      const add = (name: string, target: string | undefined, o: PbxObject) => {
        if (target === nameOf(t) || dependencies.some((d) => d.target !== undefined && d.target === target)) return;
        dependencies.push({ name, ...(target ? { target } : {}), scope, evidence: evidence(o) });
      };
      for (const id of list(t.body, 'packageProductDependencies')) {
        const product = objects.get(id);
        const name = product ? field(product.body, 'productName') : undefined;
        if (product && name) add(name, packageTargets.has(name) ? name : undefined, product);
      }
      for (const id of list(t.body, 'dependencies')) {
        const dep = objects.get(id);
        const other = dep ? objects.get(field(dep.body, 'target') ?? '') : undefined;
        if (dep && other && other.isa === 'PBXNativeTarget') add(nameOf(other), nameOf(other), dep);
      }
      // Frameworks it links: another target's product of this project, or a package target's built product (`Lib.framework`).
      for (
        const phase of list(t.body, 'buildPhases').map((id) => objects.get(id)).filter((o) =>
          o?.isa === 'PBXFrameworksBuildPhase'
        )
      ) {
        for (const buildFile of list(phase!.body, 'files').map((id) => objects.get(id))) {
          const ref = buildFile && field(buildFile.body, 'fileRef');
          const file = ref ? objects.get(ref) : undefined;
          if (!buildFile || !file) continue;
          const producer = producerOf.get(ref!);
          const product = /(?:^|\/)([^/]+)\.framework$/.exec(field(file.body, 'path') ?? '')?.[1];
          // Another project's target through a reference proxy (an iOS example app linking "Lib iOS" of the library's project).
          const remote = file.isa === 'PBXReferenceProxy'
            ? field(objects.get(field(file.body, 'remoteRef') ?? '')?.body ?? '', 'remoteInfo')
            : undefined;
          if (producer) add(nameOf(producer), nameOf(producer), buildFile);
          else if (remote && targetNames.has(remote)) add(remote, remote, buildFile);
          else if (product && field(file.body, 'sourceTree') !== 'SDKROOT') {
            const target = linkedFramework(product, sdk);
            if (target) add(product, target, buildFile);
          }
        }
      }
      // The repository's own pods its Podfile target installs (demos and tests: `pod 'Lib/MapKit', :path => './'`).
      for (const link of pods.get(nameOf(t)) ?? []) {
        if (!dependencies.some((d) => d.target === link.target)) {
          dependencies.push({ name: link.pod, target: link.target, scope, evidence: link.evidence });
        }
      }
      // Its files: the folders Xcode keeps in sync with the target (Xcode 16), and the folder of its Info.plist;
      // `dir` is where the project is.
      const folders = list(t.body, 'fileSystemSynchronizedGroups').map((id) =>
        field(objects.get(id)?.body ?? '', 'path')
      ).filter((x): x is string => !!x).map((x) => joinRel(projectDir, x));
      const compiled = compiledFiles(objects, parents, t, projectDir);
      const infoPlist = await infoPlistFile(ctx, objects, parents, t, projectDir);
      for (const own of [infoPlist && dirOf(infoPlist), ...sourcesFolders(compiled, projectDir)]) {
        if (own && own !== projectDir && !folders.includes(own) && ctx.files.some((f) => f.startsWith(own + '/'))) {
          folders.push(own);
        }
      }
      out.push({
        name: nameOf(t),
        ecosystem: 'xcode',
        kind,
        manifest: pbxproj,
        dir: projectDir,
        ...(folders.length ? { extraDirs: folders } : {}),
        language: languageOf(compiled)
          ?? languageOf(ctx.files.filter((f) => folders.some((d) => f.startsWith(d + '/'))))
          ?? languageOf(ctx.files.filter((f) => projectDir === '' || f.startsWith(projectDir + '/'))) ?? 'swift',
        dependencies,
        metadata: {
          productType: productType.replace(/^"|"$/g, ''),
          project: dirOf(pbxproj),
          ...(infoPlist && ctx.files.includes(infoPlist) ? { infoPlist } : {}),
        },
      });
    }
  }
  return out;
}

/**
 * What each Podfile target installs from this repository (`pod 'X/Sub', :path => '…'`, directly or
 * through a `def` it calls), as the targets that hold that code: the package or Xcode target named
 * for the pod and subspec (`LibMapKit` for `Lib/MapKit`) or for the pod, with the
 * subspecs it depends on in its podspec.
 */
async function podfileLinks(
  ctx: DiscoveryContext,
  packageTargets: ReadonlySet<string>,
  targetNames: ReadonlySet<string>,
): Promise<Map<string, { pod: string; target: string; evidence: string }[]>> {
  const out = new Map<string, { pod: string; target: string; evidence: string }[]>();
  for (const podfile of ctx.named('Podfile', true)) {
    const text = (await ctx.read(podfile)) ?? '';
    const lines = text.split('\n');
    // Local pods by line, and the defs (a name and the pods of its body).
    const localPod = (l: string) => /^\s*pod\s+['"]([^'"]+)['"]\s*,.*(?::path\s*=>|\bpath:)\s*['"]([^'"]*)['"]/.exec(l);
    const defs = new Map<string, { pod: string; path: string; line: number }[]>();
    let def: string | undefined;
    let target: string | undefined;
    const installs = new Map<string, { pod: string; path: string; line: number }[]>();
    lines.forEach((l, i) => {
      const d = /^\s*def\s+(\w+)/.exec(l);
      const t = /^\s*target\s+['"]([^'"]+)['"]\s+do\b/.exec(l);
      const p = localPod(l);
      if (d) def = d[1];
      else if (t) [target, def] = [t[1], undefined];
      else if (/^end\b/.test(l)) [target, def] = [undefined, undefined];
      else if (p && def) defs.set(def, [...(defs.get(def) ?? []), { pod: p[1], path: p[2], line: i + 1 }]);
      else if (p && target) {
        installs.set(target, [...(installs.get(target) ?? []), { pod: p[1], path: p[2], line: i + 1 }]);
      } else if (target && /^\s*(\w+)\s*$/.test(l) && defs.has(l.trim())) {
        installs.set(target, [...(installs.get(target) ?? []), ...defs.get(l.trim())!]);
      }
    });
    for (const [xcodeTarget, list] of installs) {
      if (!targetNames.has(xcodeTarget)) continue;
      for (const p of list) {
        const [pod, sub] = p.pod.split('/');
        const podspec = joinRel(joinRel(dirOf(podfile), p.path.replace(/^\.\/?/, '')), `${pod}.podspec`);
        const spec = ctx.has(podspec) ? ((await ctx.read(podspec)) ?? '') : '';
        // The subspec and those it depends on within the pod (MapKit depends on Core).
        const subspecs = new Set<string>(
          sub
            ? [sub]
            : (/default_subspecs?\s*=\s*(.+)/.exec(spec)?.[1].match(/['"]([^'"]+)['"]/g) ?? []).map((x) =>
              x.slice(1, -1)
            ),
        );
        for (const m of spec.matchAll(/subspec\s+['"](\w+)['"]\s+do\s*\|\w+\|([\s\S]*?)\n\s*end\b/g)) {
          if (subspecs.has(m[1])) {
            for (const dep of m[2].matchAll(/dependency\s+['"]([^'"/]+)\/(\w+)['"]/g)) {
              if (dep[1] === pod) subspecs.add(dep[2]);
            }
          }
        }
        // Each subspec is the target named for it, else the pod's own (`Lib/Core` is Lib when nothing is named LibCore).
        const known = (n: string) => packageTargets.has(n) || targetNames.has(n);
        const names = new Set(
          [...subspecs].map((x) => [`${pod}${x}`, pod].find(known)).filter((n): n is string => !!n),
        );
        if (subspecs.size === 0 && known(pod)) names.add(pod);
        for (const name of names) {
          out.set(xcodeTarget, [...(out.get(xcodeTarget) ?? []), {
            pod: p.pod,
            target: name,
            evidence: `${podfile}:${p.line}`,
          }]);
        }
      }
    }
  }
  return out;
}

/** The name of the file a target builds (`Lib` for every platform's `Lib.framework`), else its product name. */
function productOf(objects: Map<string, PbxObject>, target: PbxObject): string {
  const file = field(objects.get(field(target.body, 'productReference') ?? '')?.body ?? '', 'path');
  return /(?:^|\/)([^/]+)\.\w+$/.exec(file ?? '')?.[1] ?? field(target.body, 'productName')
    ?? field(target.body, 'name') ?? '';
}

/** The platform a target builds for (`SDKROOT` of its build settings, else of the project's). */
function sdkOf(objects: Map<string, PbxObject>, target: PbxObject): string | undefined {
  const settingIn = (listId: string | undefined) => {
    for (const id of list(objects.get(listId ?? '')?.body ?? '', 'buildConfigurations')) {
      const sdk = field(objects.get(id)?.body ?? '', 'SDKROOT');
      if (sdk) return sdk;
    }
    return undefined;
  };
  const project = [...objects.values()].find((o) => o.isa === 'PBXProject');
  return settingIn(field(target.body, 'buildConfigurationList'))
    ?? settingIn(project && field(project.body, 'buildConfigurationList'));
}

/**
 * A target's Info.plist (`INFOPLIST_FILE`, relative to the project's folder), when its build settings
 * name one, or the .xcconfig file they are based on does (an app's extensions).
 */
async function infoPlistFile(
  ctx: DiscoveryContext,
  objects: Map<string, PbxObject>,
  parents: Map<string, string>,
  target: PbxObject,
  projectDir: string,
): Promise<string | undefined> {
  const usable = (plist: string | undefined) => {
    const p = plist?.trim().replace(/^"|"$/g, '').replace(/^\$\((SRCROOT|PROJECT_DIR|SOURCE_ROOT)\)\//, '').replace(
      /^\.\//,
      '',
    );
    return p && !p.includes('$(') && !p.startsWith('/') && !p.split('/').includes('..')
      ? joinRel(projectDir, p)
      : undefined;
  };
  const configurations = list(
    objects.get(field(target.body, 'buildConfigurationList') ?? '')?.body ?? '',
    'buildConfigurations',
  );
  for (const id of configurations) {
    const own = usable(field(objects.get(id)?.body ?? '', 'INFOPLIST_FILE'));
    if (own) return own;
  }
  for (const id of configurations) {
    const body = objects.get(id)?.body ?? '';
    // Xcode 16 names it by a synchronized folder and a path inside it.
    const anchor = field(body, 'baseConfigurationReferenceAnchor');
    const anchored = anchor && field(body, 'baseConfigurationReferenceRelativePath');
    const folder = anchor && filePath(objects, parents, anchor, projectDir);
    const xcconfig = anchored && folder !== undefined
      ? joinRel(folder, anchored.replace(/^"|"$/g, ''))
      : filePath(objects, parents, field(body, 'baseConfigurationReference') ?? '', projectDir);
    if (!xcconfig || !ctx.has(xcconfig)) continue;
    const m = /^\s*INFOPLIST_FILE\s*=\s*(.+?)\s*(?:\/\/.*)?$/m.exec((await ctx.read(xcconfig)) ?? '');
    const plist = usable(m?.[1]);
    if (plist) return plist;
  }
  return undefined;
}

/** The deepest folder that holds every source file the target compiles, when they resolve to the repository. */
function sourcesFolder(files: readonly string[]): string | undefined {
  if (files.length === 0) return undefined;
  let common = dirOf(files[0]).split('/');
  for (const f of files) {
    const parts = dirOf(f).split('/');
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join('/');
}

/**
 * The folders of what a target compiles: the one that holds it all, or, when that is the project's
 * own folder, the deepest folder of each top-level folder it compiles from (`Lib iOS` compiles
 * Lib/ and UIKit+Lib/), at most three.
 */
function sourcesFolders(files: readonly string[], projectDir: string): string[] {
  const all = sourcesFolder(files);
  if (all === undefined) return [];
  if (all !== projectDir && all !== '') return [all];
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const rel = projectDir && f.startsWith(projectDir + '/') ? f.slice(projectDir.length + 1) : f;
    const top = rel.includes('/') ? rel.split('/')[0] : '';
    if (!top) return [all];
    groups.set(top, [...(groups.get(top) ?? []), f]);
  }
  return groups.size <= 3 ? [...groups.values()].map((g) => sourcesFolder(g)!).filter(Boolean) : [all];
}

/** The repository path of a file reference, through its groups; undefined outside the repository or the project. */
function filePath(
  objects: Map<string, PbxObject>,
  parents: Map<string, string>,
  id: string,
  projectDir: string,
  depth = 0,
): string | undefined {
  const o = objects.get(id);
  if (!o || depth > 64) return undefined;
  const own = field(o.body, 'path') ?? '';
  const tree = field(o.body, 'sourceTree');
  // `Example/../Lib` is `Lib`; a path that climbs out of the repository is not one of its files.
  const inRepo = (p: string) => {
    const n = posix.normalize(p);
    return n === '.' ? '' : n.startsWith('../') || n === '..' ? undefined : n;
  };
  if (tree === 'SOURCE_ROOT') return inRepo(joinRel(projectDir, own));
  if (tree !== '<group>') return undefined;
  const parent = parents.get(id);
  const base = parent ? filePath(objects, parents, parent, projectDir, depth + 1) : projectDir;
  return base === undefined ? undefined : inRepo(joinRel(base, own));
}

/** The files a target compiles (its Sources build phase), as repository paths, where they resolve to one. */
function compiledFiles(
  objects: Map<string, PbxObject>,
  parents: Map<string, string>,
  target: PbxObject,
  projectDir: string,
): string[] {
  const pathOf = (id: string) => filePath(objects, parents, id, projectDir);
  const out: string[] = [];
  for (
    const phase of list(target.body, 'buildPhases').map((id) => objects.get(id)).filter((o) =>
      o?.isa === 'PBXSourcesBuildPhase'
    )
  ) {
    for (const buildFile of list(phase!.body, 'files')) {
      const file = pathOf(field(objects.get(buildFile)?.body ?? '', 'fileRef') ?? '');
      if (file !== undefined) out.push(file);
    }
  }
  return out;
}

/** Swift or Objective-C, whichever most of these files are written in; undefined when they hold neither. */
function languageOf(files: readonly string[]): string | undefined {
  let swift = 0;
  let objc = 0;
  for (const f of files) {
    if (f.endsWith('.swift')) swift++;
    else if (/\.(m|mm|h)$/.test(f)) objc++;
  }
  return swift + objc === 0 ? undefined : swift >= objc ? 'swift' : 'objective-c';
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

/** A scalar field (`name = "App iOS";`, `productName = Account;`), unquoted. */
function field(body: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|[\\s{;])${key}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|[^;\\s]+)(?:\\s*/\\*[^*]*\\*/)?\\s*;`).exec(
    body,
  );
  if (!m) return undefined;
  return m[1].startsWith('"') ? m[1].slice(1, -1).replace(/\\"/g, '"') : m[1];
}

/** The ids of a list field (`dependencies = ( ID /* … *\/, … );`). */
function list(body: string, key: string): string[] {
  const m = new RegExp(`(?:^|[\\s{;])${key}\\s*=\\s*\\(([^)]*)\\)`).exec(body);
  return m ? [...m[1].matchAll(/\b([0-9A-F]{24})\b/g)].map((x) => x[1]) : [];
}
