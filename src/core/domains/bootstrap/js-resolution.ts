/**
 * How a relative JS/TS import specifier names a file: as written, with one of the module extensions,
 * or as a folder through its index file. One list for every reader of the import graph, so a file the
 * symbol uses reach is also a file the architecture graph links to.
 */
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

export const JS_RESOLUTION_SUFFIXES: readonly string[] = [
  '',
  ...MODULE_EXTENSIONS,
  ...MODULE_EXTENSIONS.map((ext) => `/index${ext}`),
];

/**
 * The file a relative specifier resolved against its importer's folder (`base`) names, if `has` holds
 * it. A `.js` specifier also names the `.ts` source it is compiled from (TypeScript's ESM convention).
 */
export function resolveJsFile(base: string, has: (file: string) => boolean): string | undefined {
  for (const suffix of JS_RESOLUTION_SUFFIXES) if (has(base + suffix)) return base + suffix;
  const swapped = base.replace(/\.(m|c)?js$/, '.$1ts');
  return swapped !== base && has(swapped) ? swapped : undefined;
}
