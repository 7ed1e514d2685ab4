import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode, isAutoSnippetError } from './kernel/errors';
import { type Logger, silentLogger } from './kernel/log';
import { type DeepPartial, mergeSettings, type Settings } from './settings';
import { migrations } from './store/schema';
import { Store } from './store/store';
import { VERSION } from './version';

export interface WorkspaceOptions {
  settings?: DeepPartial<Settings>;
  log?: Logger;
  /** Folder of the bundled skills (the extension's or the package's `skills/`). */
  bundledSkillsDir?: string;
  /**
   * A process that answers one request and exits (the CLI): its answers wait for the checks of the
   * files that a long-lived process runs in the background, which would not finish before it exits.
   */
  oneShot?: boolean;
}

interface Disposable {
  dispose(): void | Promise<void>;
}

/** The project's AutoSnippet folder, relative to the workspace root. */
export const DATA_DIR = '.autosnippet';
const DATA_GITIGNORE =
  '# Per-machine index and state; the recipes, guard rules and skills beside it are shared.\nautosnippet.db*\n*.lock\naudit/\nstate/\n';

/** A `.gitignore` an older version wrote (it starts with our first line) learns the lines added since. */
function keepGitignoreCurrent(file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  if (!text.startsWith(DATA_GITIGNORE.split('\n')[0])) return;
  const have = new Set(text.split('\n'));
  const missing = DATA_GITIGNORE.split('\n').filter((l) => l && !have.has(l));
  if (missing.length) appendFileSync(file, (text.endsWith('\n') ? '' : '\n') + missing.join('\n') + '\n');
}

/**
 * The context every tool handler receives: the workspace root, its `.autosnippet` folder, the store,
 * settings, and the domain services (skills registry, guard engine, …) created on first use.
 * There are no module-level singletons: a test can open as many workspaces as it likes.
 *
 * Opening creates nothing on disk: `.autosnippet/` (with its `.gitignore`) appears on the first
 * write a person or an agent asks for, through `ensureDataDir`.
 */
export class Workspace {
  readonly version = VERSION;
  /** Settles (never rejects) once the store has opened or failed to; `store` may be used after it. */
  readonly storeReady: Promise<void>;
  private opened: Store | undefined;
  private storeError: AutoSnippetError | undefined;
  private dataDirCreated = false;
  private readonly services = new Map<string, unknown>();
  private readonly disposables: Disposable[] = [];

  private constructor(
    readonly root: string,
    public settings: Settings,
    readonly log: Logger,
    readonly bundledSkillsDir: string | undefined,
    readonly oneShot = false,
  ) {
    this.storeReady = this.openStore();
  }

  /** Opens a workspace and waits for its store. A store that cannot be used is reported by `store`, not here. */
  static async open(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const ws = Workspace.start(root, options);
    await ws.storeReady;
    return ws;
  }

  /**
   * The workspace at once, its store opening in the background: a server can answer what needs no
   * database meanwhile. Await `storeReady` before using `store`.
   */
  static start(root: string, options: WorkspaceOptions = {}): Workspace {
    const abs = path.resolve(root);
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st?.isDirectory()) {
      throw new AutoSnippetError(
        ErrorCode.NotFound,
        st ? `The workspace ${abs} is a file, not a folder.` : `The workspace folder ${abs} does not exist.`,
        'Give the project folder (--workspace DIR).',
      );
    }
    return new Workspace(
      abs,
      mergeSettings(options.settings),
      options.log ?? silentLogger,
      options.bundledSkillsDir,
      options.oneShot,
    );
  }

  get dataDir(): string {
    return path.join(this.root, DATA_DIR);
  }

  /** The database. Throws STORE_UNAVAILABLE, with what to do, when it could not be opened. */
  get store(): Store {
    if (this.opened) return this.opened;
    throw this.storeError
      ?? new AutoSnippetError(
        ErrorCode.StoreUnavailable,
        'The database is still opening.',
        'Await Workspace.storeReady before using the store.',
      );
  }

  private async openStore(): Promise<void> {
    try {
      this.opened = await Store.open({
        dbPath: path.join(this.dataDir, 'autosnippet.db'),
        migrations,
        log: this.log,
        beforeCreate: () => this.ensureDataDir(),
      });
    } catch (e) {
      this.storeError = isAutoSnippetError(e)
        ? e
        : new AutoSnippetError(
          ErrorCode.StoreUnavailable,
          `The database of ${this.root} could not be opened: ${(e as Error).message}`,
          'Check that the .autosnippet folder is readable and writable; the AutoSnippet log has the details.',
        );
      this.log.error(`the database cannot be used: ${this.storeError.message}`);
    }
  }

  /**
   * Creates `.autosnippet/` and its `.gitignore` when they are missing. Called just before
   * AutoSnippet writes its first file there (the database, the audit log); reading never calls it.
   */
  ensureDataDir(): void {
    const dir = this.dataDir;
    const st = statSync(dir, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) {
      throw new AutoSnippetError(
        ErrorCode.StoreUnavailable,
        `${dir} is a file; AutoSnippet keeps its recipes, rules and database in a folder of that name.`,
        `Move or rename ${dir}, then try again.`,
      );
    }
    if (!st) {
      mkdirSync(dir, { recursive: true });
      this.dataDirCreated = true;
      this.log.info(`created ${dir} for the first write`);
    }
    try {
      writeFileSync(path.join(dir, '.gitignore'), DATA_GITIGNORE, { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      keepGitignoreCurrent(path.join(dir, '.gitignore'));
    }
  }

  /** Once, after the write that created `.autosnippet/`: a sentence for that write's answer. */
  takeCreationNotice(): string | undefined {
    if (!this.dataDirCreated) return undefined;
    this.dataDirCreated = false;
    return `Created ${DATA_DIR}/ in ${this.root} for this first write. Commit the recipes, guard rules and skills it will hold with your code; its .gitignore keeps the database and the audit log out of git.`;
  }

  /** Resolves a workspace-relative path. */
  path(...parts: string[]): string {
    return path.join(this.root, ...parts);
  }

  /** A domain service, created once per workspace on first use and disposed with it. */
  service<T>(key: string, create: (ws: Workspace) => T): T {
    let s = this.services.get(key) as T | undefined;
    if (s === undefined) {
      s = create(this);
      this.services.set(key, s);
      if (s && typeof (s as unknown as Disposable).dispose === 'function') {
        this.disposables.push(s as unknown as Disposable);
      }
    }
    return s;
  }

  updateSettings(partial: DeepPartial<Settings>): void {
    this.settings = mergeSettings({ ...this.settings, ...partial } as DeepPartial<Settings>);
  }

  async dispose(): Promise<void> {
    for (const d of this.disposables.splice(0).reverse()) await d.dispose();
    this.services.clear();
    await this.storeReady;
    await this.opened?.close();
  }
}
