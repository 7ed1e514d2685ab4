/**
 * The workspace file service: one safe reader, one walker with one ignore list, safe YAML and JSON.
 * Everything the core reads from a repository goes through here (see ARCHITECTURE, "Safety at the edges").
 */
export {
  CLASSIFY_HEAD_CHARS,
  classifyFile,
  type FileClass,
  type FileKind,
  type LineRegion,
  testRegions,
} from './classify';
export {
  type DataLimits,
  type DataProblem,
  type FrontMatter,
  frontMatterText,
  type Parsed,
  parseFrontMatter,
  parseJson,
  type ParseOptions,
  parseYaml,
  toPlainData,
} from './data';
export { type DeclaredKind, type DeclaredKinds, declaredKinds } from './declared';
export { GlobSet } from './globs';
export { ALWAYS_SKIPPED_DIRS, parseIgnoreFile, skippedFolderReason } from './ignore';
export { type InsideResult, isInside, isUnder, realPathInside, relPath, shownPath } from './paths';
export { type FileProblem, ProblemList, problemOf } from './problems';
export {
  type Boundary,
  describeEntry,
  formatBytes,
  looksBinary,
  READ_CAPS,
  READ_DEADLINE_MS,
  type ReadKind,
  type ReadOptions,
  readRepoBytes,
  readRepoBytesSync,
  readRepoFile,
  readRepoFileSync,
  RealPathCache,
  type RepoBytes,
  type RepoFile,
  skillBoundary,
  WORKSPACE_BOUNDARY,
} from './read';
export {
  type WalkBounds,
  type WalkOptions,
  walkWorkspace,
  WorkspaceFiles,
  workspaceFiles,
  type WorkspaceListing,
} from './walk';
