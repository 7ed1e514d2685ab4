/**
 * The marked block an export owns inside a file. Everything between the two markers is replaced on
 * the next export; everything around it is the person's and is kept byte for byte.
 */
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';

export const BLOCK_BEGIN =
  '<!-- autosnippet:begin — generated from the published recipes in .autosnippet/recipes; `autosnippet export` replaces this block, so write your own text outside it -->';
export const BLOCK_END = '<!-- autosnippet:end -->';
const BEGIN_RE = /^<!-- autosnippet:begin\b.*?-->(?=[ \t]*\r?$)/gm;
const END_RE = /^<!-- autosnippet:end -->(?=[ \t]*\r?$)/gm;

export interface BlockLocation {
  /** Offset of the begin marker's line and just past the end marker's line. */
  start: number;
  end: number;
}

/** Where the block is in a file; undefined when it has none; BLOCK_DAMAGED when the markers do not pair up. */
export function findBlock(text: string, file: string): BlockLocation | undefined {
  const begins = [...text.matchAll(BEGIN_RE)];
  const ends = [...text.matchAll(END_RE)];
  if (begins.length === 0 && ends.length === 0) return undefined;
  if (begins.length !== 1 || ends.length !== 1 || ends[0].index! < begins[0].index!) {
    throw new AutoSnippetError(
      ErrorCode.ExportBlockDamaged,
      `${file} has ${begins.length} "autosnippet:begin" and ${ends.length} "autosnippet:end" markers; an export needs exactly one of each, in that order.`,
      `Fix the markers in ${file} by hand (or delete both and the text between them), then export again. Nothing was written to it.`,
      { file, begins: begins.length, ends: ends.length },
    );
  }
  const end = ends[0].index! + ends[0][0].length;
  return { start: begins[0].index!, end };
}

/** The characters of a file that are not the block: what the person wrote around it. */
export function outsideLength(text: string | undefined, file: string): number {
  if (text === undefined) return 0;
  const at = findBlock(text, file);
  return at ? text.length - (at.end - at.start) : text.length;
}

/**
 * The file with `block` (which includes the markers) in place: a new file is `frontmatter` + block;
 * an existing one gets its block replaced, or the block appended after a blank line (the file's own
 * text, trailing blank lines and spaces included, stays as it was). Line endings follow the file's.
 */
export function withBlock(existing: string | undefined, block: string, file: string, frontmatter = ''): string {
  if (existing === undefined) return `${frontmatter}${frontmatter ? '\n' : ''}${block}\n`;
  const crlf = /\r\n/.test(existing);
  const own = crlf ? block.replace(/\r?\n/g, '\r\n') : block;
  const at = findBlock(existing, file);
  if (at) return existing.slice(0, at.start) + own + existing.slice(at.end);
  const nl = crlf ? '\r\n' : '\n';
  const gap = existing === '' || /(^|\n)[ \t]*\r?\n$/.test(existing) ? '' : /\n$/.test(existing) ? nl : nl + nl;
  return `${existing}${gap}${own}${nl}`;
}
