import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Store } from './store/store';
import { migrations } from './store/schema';
import { type Logger, silentLogger } from './kernel/log';
import { type Settings, type DeepPartial, mergeSettings } from './settings';
import { VERSION } from './version';

export interface WorkspaceOptions {
  settings?: DeepPartial<Settings>;
  log?: Logger;
  /** Folder of the bundled skills (the extension's or the package's `skills/`). */
  bundledSkillsDir?: string;
}

interface Disposable { dispose(): void | Promise<void> }

/**
 * The context every tool handler receives: the workspace root, its `.autosnippet` folder, the store,
 * settings, and the domain services (skills registry, guard engine, …) created on first use.
 * There are no module-level singletons: a test can open as many workspaces as it likes.
 */
export class Workspace {
  readonly version = VERSION;
  private readonly services = new Map<string, unknown>();
  private readonly disposables: Disposable[] = [];

  private constructor(
    readonly root: string,
    readonly store: Store,
    public settings: Settings,
    readonly log: Logger,
    readonly bundledSkillsDir: string | undefined,
  ) {}

  static async open(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const abs = path.resolve(root);
    if (!existsSync(abs)) throw new Error(`workspace folder does not exist: ${abs}`);
    const dataDir = path.join(abs, '.autosnippet');
    mkdirSync(dataDir, { recursive: true });
    const ignore = path.join(dataDir, '.gitignore');
    if (!existsSync(ignore)) {
      writeFileSync(ignore, '# Per-machine index and state; the recipes, guard rules and skills beside it are shared.\nautosnippet.db*\n*.lock\naudit/\n');
    }
    const log = options.log ?? silentLogger;
    const store = await Store.open({ dbPath: path.join(dataDir, 'autosnippet.db'), migrations, log });
    return new Workspace(abs, store, mergeSettings(options.settings), log, options.bundledSkillsDir);
  }

  get dataDir(): string {
    return path.join(this.root, '.autosnippet');
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
      if (s && typeof (s as unknown as Disposable).dispose === 'function') this.disposables.push(s as unknown as Disposable);
    }
    return s;
  }

  updateSettings(partial: DeepPartial<Settings>): void {
    this.settings = mergeSettings({ ...this.settings, ...partial } as DeepPartial<Settings>);
  }

  async dispose(): Promise<void> {
    for (const d of this.disposables.splice(0).reverse()) await d.dispose();
    this.services.clear();
    await this.store.close();
  }
}
