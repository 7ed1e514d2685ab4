/** Build ecosystems whose manifests structure reads. */
export type Ecosystem =
  | 'npm'
  | 'pnpm'
  | 'yarn'
  | 'typescript'
  | 'swift'
  | 'xcode'
  | 'cargo'
  | 'go'
  | 'python'
  | 'gradle'
  | 'maven';

export type TargetKind = 'library' | 'app' | 'test' | 'plugin' | 'module';

export type DependencyScope = 'prod' | 'dev' | 'test' | 'peer' | 'optional' | 'build';

export interface TargetDependency {
  /** The name as the manifest declares it. */
  name: string;
  /** The target it names, when the dependency is another target of this project. */
  target?: string;
  scope: DependencyScope;
  version?: string;
  /** When it applies only on some platforms or interpreters: `cfg(windows)`, `python_version < '3.11'`. */
  condition?: string;
  /** Where it is declared, as `path:line`. */
  evidence?: string;
  /** Declared on its behalf elsewhere: by a Gradle convention plugin it applies (evidence is the plugin's line). */
  /** How the dependency arises besides the manifest's own line: a convention plugin it applies, or Gradle's buildSrc (on every build script's classpath). */
  via?: 'convention-plugin' | 'buildSrc';
}

/** A package, crate, module or build target, as its manifest declares it. */
export interface Target {
  /** Unique in the project; the manifest's name, prefixed with the ecosystem only on a clash. */
  name: string;
  ecosystem: Ecosystem;
  kind: TargetKind;
  /** Workspace-relative path of the manifest that declares the target. */
  manifest: string;
  /** Workspace-relative folder of the target's files ('' for the root). */
  dir: string;
  /** More folders of the target's files (a Swift target's custom path, a Gradle source set; an Xcode target's synchronized folders, its only ones). */
  extraDirs?: string[];
  /** Main language, from the ecosystem. */
  language: string;
  dependencies: TargetDependency[];
  /** Version, entry points, scripts, platforms… whatever the manifest says that helps a reader. */
  metadata: Record<string, unknown>;
}

/** A manifest that could not be read; discovery goes on without it and reports it. */
export interface ManifestProblem {
  manifest: string;
  message: string;
}

export interface ProjectStructure {
  targets: Target[];
  /** Ecosystems found, with their target counts. */
  ecosystems: Partial<Record<Ecosystem, number>>;
  problems: ManifestProblem[];
  /** True when the workspace listing hit its bound, so some manifests may be missing. */
  truncated: boolean;
}
