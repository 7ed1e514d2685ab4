import * as vscode from 'vscode';
import type { Candidate } from '../../core/catalog/adapters';
import { candidateFromMarkdown, candidateMarkdown } from '../../core/catalog/adapters';
import { getCandidateTool, updateCandidateTool } from '../../core/catalog/knowledge';
import type { ExtensionHost } from '../host';

export const CANDIDATE_SCHEME = 'autosnippet-candidate';

/**
 * "Edit" on a candidate opens `autosnippet-candidate:/<id>.md`: the candidate in the recipe file
 * format. Saving it updates the candidate through the catalog (update_candidate, as the person), so
 * the Gateway sees the change like any other.
 */
export class CandidateFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor(private readonly host: ExtensionHost, private readonly onSaved: () => void) {}

  static uri(id: string): vscode.Uri {
    return vscode.Uri.from({ scheme: CANDIDATE_SCHEME, path: `/${id}.md` });
  }

  private idOf(uri: vscode.Uri): string {
    return uri.path.replace(/^\//, '').replace(/\.md$/, '');
  }

  private async candidate(uri: vscode.Uri): Promise<Candidate> {
    const ws = await this.host.getWorkspace();
    const r = await this.host.catalog.call(
      ws,
      getCandidateTool,
      { id: this.idOf(uri) },
      { actor: 'human', channel: 'vscode' },
    );
    if (!r.ok) throw vscode.FileSystemError.FileNotFound(uri);
    return r.data;
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return Buffer.from(candidateMarkdown(await this.candidate(uri)), 'utf8');
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const c = await this.candidate(uri);
    const size = Buffer.byteLength(candidateMarkdown(c));
    return {
      type: vscode.FileType.File,
      ctime: Date.parse(c.createdAt),
      mtime: Date.now(),
      size,
      ...(c.status !== 'pending' ? { permissions: vscode.FilePermission.Readonly } : {}),
    };
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const id = this.idOf(uri);
    let patch;
    try {
      patch = candidateFromMarkdown(Buffer.from(content).toString('utf8'), `${id}.md`);
    } catch (e) {
      throw vscode.FileSystemError.NoPermissions((e as Error).message);
    }
    const ws = await this.host.getWorkspace();
    const r = await this.host.catalog.call(
      ws,
      updateCandidateTool,
      { id, ...patch },
      { actor: 'human', channel: 'vscode' },
    );
    if (!r.ok) {
      throw vscode.FileSystemError.NoPermissions(`${r.error.message}${r.error.hint ? ` ${r.error.hint}` : ''}`);
    }
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.onSaved();
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
