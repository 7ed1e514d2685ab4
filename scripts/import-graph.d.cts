export declare function sourceFiles(dir: string, skip?: RegExp): string[];
export interface RelativeImport {
  specifier: string;
  start: number;
  end: number;
  typeOnly: boolean;
}
export declare function relativeImports(text: string): RelativeImport[];
export declare function resolveSpecifier(fromFile: string, specifier: string): string | undefined;
export declare function importGraph(files: string[], options?: { runtimeOnly?: boolean }): Map<string, Set<string>>;
export declare function cycles(graph: Map<string, Set<string>>): string[][];
