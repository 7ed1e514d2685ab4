/**
 * The workspace file service: one safe reader, one walker with one ignore list, safe YAML and JSON.
 * Everything the core reads from a repository goes through here (see ARCHITECTURE, "Safety at the edges").
 */
export { readRepoFile, readRepoFileSync, readRepoBytes, readRepoBytesSync, looksBinary, describeEntry, formatBytes, READ_CAPS, READ_DEADLINE_MS, RealPathCache, WORKSPACE_BOUNDARY, skillBoundary, type ReadKind, type ReadOptions, type RepoFile, type RepoBytes, type Boundary } from './read';
export { walkWorkspace, workspaceFiles, WorkspaceFiles, type WalkOptions, type WalkBounds, type WorkspaceListing } from './walk';
export { ALWAYS_SKIPPED_DIRS, skippedFolderReason, parseIgnoreFile } from './ignore';
export { parseYaml, parseJson, parseFrontMatter, toPlainData, type DataLimits, type DataProblem, type FrontMatter, type Parsed, type ParseOptions } from './data';
export { GlobSet } from './globs';
export { declaredKinds, type DeclaredKind, type DeclaredKinds } from './declared';
export { relPath, isInside, isUnder, shownPath, realPathInside, type InsideResult } from './paths';
export { ProblemList, problemOf, type FileProblem } from './problems';
export { classifyFile, testRegions, CLASSIFY_HEAD_CHARS, type FileKind, type FileClass, type LineRegion } from './classify';
