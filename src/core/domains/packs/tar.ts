/**
 * Reads the files of a gzipped tarball as `npm pack` writes it (ustar, with pax or GNU headers for
 * long names), so a pack is unpacked without running tar. Only regular files are kept; a path that is
 * absolute or climbs out (`..`) refuses the whole tarball, and so do sizes past the bounds.
 */
import { gunzipSync } from 'node:zlib';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';

/** A pack is Markdown and JSON: far below these. */
export const MAX_PACK_BYTES = 32 * 1024 * 1024;
export const MAX_PACK_FILES = 5000;

export interface TarFile {
  /** The path inside the package, the leading `package/` folder removed. */
  path: string;
  data: Buffer;
}

function refuse(what: string, message: string): never {
  throw new AutoSnippetError(ErrorCode.InvalidInput, `${what}: ${message}`, 'Give a tarball made by `npm pack`.');
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number {
  const text = field(block, start, length).trim();
  return text ? parseInt(text, 8) : 0;
}

/** `path` from a pax extended header (`<len> key=value\n` records). */
function paxPath(data: Buffer): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < data.length;) {
    const space = data.indexOf(0x20, i);
    if (space < 0) break;
    const len = parseInt(data.subarray(i, space).toString('ascii'), 10);
    if (!(len > 0)) break;
    const record = data.subarray(space + 1, i + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') found = record.slice(eq + 1);
    i += len;
  }
  return found;
}

/** The regular files of a `.tgz`, the first path segment (npm's `package/`) removed. */
export function readTarball(gz: Buffer, what: string): TarFile[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz, { maxOutputLength: MAX_PACK_BYTES });
  } catch (e) {
    refuse(what, `not a gzipped tarball or larger than ${MAX_PACK_BYTES} bytes unpacked (${(e as Error).message})`);
  }
  const files: TarFile[] = [];
  let longName: string | undefined;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    const body = tar.subarray(at + 512, at + 512 + size);
    if (body.length < size) refuse(what, 'the tarball is cut short');
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x' || type === 'L') {
      longName = type === 'x' ? paxPath(body) : field(body, 0, body.length);
      continue;
    }
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    if (type !== '0' && type !== '7') continue; // folders, links and devices are not pack content
    const parts = name.split('/').filter((p) => p && p !== '.');
    if (name.startsWith('/') || parts.includes('..') || /^[A-Za-z]:/.test(name)) {
      refuse(what, `the entry "${name.slice(0, 200)}" leaves the package folder`);
    }
    if (parts.length < 2) continue; // npm packs everything under package/
    if (files.length >= MAX_PACK_FILES) refuse(what, `more than ${MAX_PACK_FILES} files`);
    files.push({ path: parts.slice(1).join('/'), data: Buffer.from(body) });
  }
  return files;
}
