// The concurrency or isolation model of a code base: which construct guards shared state (an actor,
// the main actor, a lock, a serial queue), where work is sent (threads, executors, tasks), and the
// lock idiom as a whole (the type that wraps a lock, how the lock is named and released). Read from
// annotations, calls, type uses, implementations and modifiers; what each language offers is data.
import { languageOf } from '../dimensions/standards';
import { confidence } from '../evidence';
import { FAMILY_LABEL } from '../source';
import type { AnalysisContext, CandidateDraft, Family } from '../types';
import { baseName, type Detector, type FactFile, filesSaid } from './code-detector';

type Role = 'isolation' | 'lock' | 'offload' | 'marker';

/** The leading construct's fewest files, and share of the production files, without a lock wrapper. */
const MIN_LEAD_FILES = 4;
const MIN_LEAD_SHARE = 0.05;

/** One construct of a language's concurrency toolbox, and the facts that show it. */
interface Construct {
  id: string;
  /** As a reader names it in a summary. */
  label: string;
  role: Role;
  annotations?: string[];
  /** Callees as the fact layer keys them (`name`, `qualifier.name`, `.name` for any qualifier). */
  calls?: string[];
  /** Type names used (type positions, constructors) or `module.Name` qualified uses. */
  types?: string[];
  /** Declaration keywords (`actor`) and modifiers (`synchronized`, `suspend`). */
  keywords?: string[];
  /** Supertypes whose conformance is the construct (`Sendable`, `Send`). */
  bases?: string[];
}

const TOOLBOX: Partial<Record<Family, Construct[]>> = {
  swift: [
    { id: 'main-actor', label: '`@MainActor`', role: 'isolation', annotations: ['MainActor'] },
    { id: 'actor', label: '`actor` types', role: 'isolation', keywords: ['actor'] },
    { id: 'sendable', label: '`Sendable` conformances', role: 'marker', bases: ['Sendable'] },
    {
      id: 'lock',
      label: 'locks',
      role: 'lock',
      types: ['NSLock', 'NSRecursiveLock', 'OSAllocatedUnfairLock', 'os_unfair_lock', 'pthread_mutex_t', 'Mutex'],
      calls: ['os_unfair_lock_lock', 'pthread_mutex_lock'],
    },
    { id: 'serial-queue', label: '`DispatchQueue(label:)` queues', role: 'lock', calls: ['DispatchQueue'] },
    {
      id: 'gcd-main',
      label: '`DispatchQueue.main` hops',
      role: 'offload',
      calls: ['main.async', 'main.sync', 'main.asyncAfter'],
    },
    { id: 'task', label: '`Task { }`', role: 'offload', calls: ['Task', 'Task.detached'] },
  ],
  rust: [
    {
      id: 'mutex',
      label: '`Mutex`/`RwLock`',
      role: 'lock',
      types: ['Mutex', 'RwLock'],
      calls: ['Mutex.new', 'RwLock.new'],
    },
    {
      id: 'atomic',
      label: 'atomics',
      role: 'lock',
      types: ['AtomicBool', 'AtomicUsize', 'AtomicU64', 'AtomicU32', 'AtomicI64', 'AtomicPtr'],
    },
    { id: 'send-sync', label: '`unsafe impl Send`/`Sync`', role: 'marker', bases: ['Send', 'Sync'] },
    { id: 'thread', label: '`std::thread`', role: 'offload', calls: ['thread.spawn', 'thread.scope', '.spawn_scoped'] },
    { id: 'tokio', label: 'tokio tasks', role: 'offload', calls: ['tokio.spawn', 'task.spawn', 'task.spawn_blocking'] },
    {
      id: 'rayon',
      label: 'rayon parallel iterators',
      role: 'offload',
      calls: ['.par_iter', '.into_par_iter', '.par_bridge'],
    },
    {
      id: 'channel',
      label: 'channels',
      role: 'offload',
      calls: ['mpsc.channel', 'mpsc.sync_channel', 'unbounded', 'bounded'],
    },
  ],
  go: [
    { id: 'mutex', label: '`sync.Mutex`/`sync.RWMutex`', role: 'lock', types: ['sync.Mutex', 'sync.RWMutex'] },
    {
      id: 'atomic',
      label: '`sync/atomic`',
      role: 'lock',
      calls: [
        'atomic.AddInt64',
        'atomic.LoadInt64',
        'atomic.StoreInt64',
        'atomic.AddInt32',
        'atomic.LoadInt32',
        'atomic.StoreInt32',
      ],
    },
    { id: 'goroutine', label: 'goroutines', role: 'offload', calls: ['go '] },
    { id: 'waitgroup', label: '`sync.WaitGroup`', role: 'offload', types: ['sync.WaitGroup'] },
    { id: 'errgroup', label: '`errgroup`', role: 'offload', calls: ['errgroup.WithContext'] },
  ],
  java: [
    { id: 'synchronized', label: '`synchronized`', role: 'lock', keywords: ['synchronized'], calls: ['synchronized'] },
    {
      id: 'lock',
      label: '`ReentrantLock`',
      role: 'lock',
      types: ['ReentrantLock', 'ReentrantReadWriteLock'],
      calls: ['ReentrantLock'],
    },
    { id: 'guarded', label: '`@GuardedBy`', role: 'lock', annotations: ['GuardedBy'] },
    {
      id: 'thread-annotations',
      label: 'thread annotations',
      role: 'isolation',
      annotations: ['MainThread', 'WorkerThread', 'UiThread', 'AnyThread', 'ThreadSafe'],
    },
    {
      id: 'executor',
      label: 'executors',
      role: 'offload',
      types: ['ExecutorService', 'Executor', 'ThreadPoolExecutor'],
      calls: ['Executors.newFixedThreadPool', 'Executors.newCachedThreadPool', 'Executors.newSingleThreadExecutor'],
    },
    { id: 'thread', label: '`Thread`', role: 'offload', calls: ['Thread'] },
  ],
  kotlin: [
    {
      id: 'synchronized',
      label: '`synchronized`',
      role: 'lock',
      annotations: ['Synchronized'],
      calls: ['synchronized'],
    },
    {
      id: 'lock',
      label: 'locks',
      role: 'lock',
      types: ['ReentrantLock', 'Mutex'],
      calls: ['.withLock', 'ReentrantLock', 'Mutex'],
    },
    {
      id: 'thread-annotations',
      label: 'thread annotations',
      role: 'isolation',
      annotations: ['MainThread', 'WorkerThread', 'UiThread', 'AnyThread'],
    },
    { id: 'dispatchers', label: '`withContext(Dispatchers…)`', role: 'offload', calls: ['withContext'] },
    { id: 'suspend', label: '`suspend` functions', role: 'offload', keywords: ['suspend'] },
    { id: 'executor', label: 'executors', role: 'offload', types: ['ExecutorService', 'Executor'] },
  ],
  python: [
    { id: 'async', label: '`async def`', role: 'offload', keywords: ['async'] },
    {
      id: 'to-thread',
      label: 'thread offloading (`to_thread`, `run_in_executor`)',
      role: 'offload',
      calls: ['asyncio.to_thread', '.run_in_executor', 'to_thread.run_sync', 'anyio.to_thread'],
    },
    {
      id: 'lock',
      label: '`threading` locks',
      role: 'lock',
      calls: ['threading.Lock', 'threading.RLock', 'Lock', 'RLock', 'asyncio.Lock', 'anyio.Lock'],
    },
    { id: 'thread', label: 'threads', role: 'offload', calls: ['threading.Thread', 'ThreadPoolExecutor'] },
  ],
};

interface Hit {
  files: Map<string, number>;
  count: number;
}

/** Which construct each file uses, how often, and where the lock idiom is. */
export class ConcurrencyDetector implements Detector {
  private readonly hits = new Map<string, Hit>();
  private readonly production = new Map<Family, number>();
  /** `family|qualifier` of lock calls (`mu.Lock` → mu): how a lock field is named. */
  private readonly lockNames = new Map<string, Map<string, string[]>>();
  /** Types declared in a file that uses a lock, by family: lock wrappers when other files use them. */
  private readonly lockOwners = new Map<string, { path: string; line: number; construct: string }>();
  /** `family|type` → how many files use it. */
  private readonly typeUsers = new Map<string, number>();

  visit(file: FactFile): void {
    const { facts, family } = file;
    if (facts.role !== 'production') return;
    const toolbox = TOOLBOX[family];
    if (!toolbox) return;
    this.production.set(family, (this.production.get(family) ?? 0) + 1);
    const seen = new Map<string, { n: number; line: number }>();
    const add = (id: string, n: number, line: number) => {
      const s = seen.get(id);
      if (s) s.n += n;
      else seen.set(id, { n, line });
    };
    for (const c of toolbox) {
      for (const a of facts.annotations) if (c.annotations?.includes(a.name)) add(c.id, 1, a.line);
      for (const callee of c.calls ?? []) {
        if (callee.startsWith('.')) {
          for (const [k, [line, n]] of facts.calls) if (k.endsWith(callee) || k === callee) add(c.id, n, line);
        } else {
          const hit = facts.calls.get(callee);
          if (hit) add(c.id, hit[1], hit[0]);
        }
      }
      for (const t of c.types ?? []) {
        const [q, name] = t.includes('.') ? t.split('.') : [undefined, t];
        const line = q ? facts.qualified.get(q)?.get(name) : facts.uses.get(name);
        if (line !== undefined) add(c.id, 1, line);
      }
      for (const d of facts.decls) {
        if (c.keywords?.some((k) => d.keyword === k || d.modifiers?.includes(k))) add(c.id, 1, d.line);
        if (c.bases && d.bases?.some((b) => c.bases!.includes(b))) add(c.id, 1, d.line);
      }
      for (const i of facts.impls) {
        if (c.bases?.includes(i.base) && (family !== 'rust' || i.unchecked)) add(c.id, 1, i.line);
      }
    }
    for (const [id, { n, line }] of seen) {
      const key = `${family}|${id}`;
      const h = this.hits.get(key) ?? { files: new Map(), count: 0 };
      h.count += n;
      h.files.set(file.path, line);
      this.hits.set(key, h);
    }
    // The lock idiom: a file that uses a lock construct and declares types is where a lock wrapper may live.
    const lock = toolbox.find((c) => c.role === 'lock' && seen.has(c.id));
    const types = facts.decls.filter((d) => d.kind === 'type' && !d.member && d.visibility !== 'private');
    if (lock) {
      // A lock wrapper is what its file is about: a file of one or two types, not a module that happens to hold an atomic.
      for (const d of types.length <= 2 ? types : []) {
        {
          const key = `${family}|${d.name}`;
          if (!this.lockOwners.has(key)) {
            this.lockOwners.set(key, { path: file.path, line: d.line, construct: lock.label });
          }
        }
      }
      for (const [k] of facts.calls) {
        const m = /^(\w+)\.(Lock|RLock|lock|acquire|withLock)$/.exec(k);
        if (!m || m[1] === 'self' || m[1] === 'this') continue;
        const names = this.lockNames.get(family) ?? new Map<string, string[]>();
        names.set(m[1], [...(names.get(m[1]) ?? []), file.path]);
        this.lockNames.set(family, names);
      }
    }
    for (const name of facts.uses.keys()) {
      if (!/^[A-Z]/.test(name)) continue;
      const key = `${family}|${name}`;
      this.typeUsers.set(key, (this.typeUsers.get(key) ?? 0) + 1);
    }
  }

  finish(ctx: AnalysisContext): CandidateDraft[] {
    const out: CandidateDraft[] = [];
    for (const [family, files] of this.production) {
      if (files < 5) continue;
      const toolbox = TOOLBOX[family]!;
      const used = toolbox
        .map((c) => ({ c, h: this.hits.get(`${family}|${c.id}`) }))
        .filter((x): x is { c: Construct; h: Hit } => !!x.h && x.h.files.size >= 2)
        .sort((a, b) => b.h.files.size - a.h.files.size || b.h.count - a.h.count);
      if (!used.length) continue;
      const guards = used.filter((x) => x.c.role === 'lock' || x.c.role === 'isolation');
      if (!guards.length && !used.some((x) => x.c.role === 'offload')) continue;
      const markers = used.filter((x) => x.c.role === 'marker');
      const offload = used.filter((x) => x.c.role === 'offload');
      const lead = guards[0] ?? offload[0];
      const wrapper = this.lockWrapper(family);
      // A model of the code base needs a construct a share of it uses, or a wrapper other files go
      // through: atomics in 3 files of 100 are those files' detail.
      if (!wrapper && lead.h.files.size < Math.max(MIN_LEAD_FILES, files * MIN_LEAD_SHARE)) continue;
      const naming = this.lockNaming(family);
      const parts: string[] = [];
      if (guards.length) {
        const [g, ...rest] = guards;
        if (wrapper) {
          parts.push(
            `Shared state is kept in \`${wrapper.name}\` (${
              baseName(wrapper.path)
            }:${wrapper.line}), which guards it with ${wrapper.construct} and is used from ${wrapper.users} files`,
          );
        }
        const files = `${g.h.files.size} of ${this.production.get(family)} production files`;
        const where = filesSaid([...g.h.files.keys()]);
        parts.push(
          wrapper && wrapper.construct === g.c.label
            ? `${files} take ${g.c.label} (${where})`
            : `${wrapper ? 'elsewhere it' : 'Shared state'} is guarded with ${g.c.label}: ${files} do (${where})`,
        );
        // Only a construct of the same role is an exception to the rule (a serial queue beside a lock; not a Task beside a lock).
        const minority = rest.filter((x) => x.c.role === g.c.role && x.h.files.size * 2 <= g.h.files.size);
        if (minority.length) {
          parts.push(
            `the exceptions use ${
              minority.slice(0, 2).map((x) => `${x.c.label} (${filesSaid([...x.h.files.keys()], 2)})`).join(' and ')
            }`,
          );
        }
        const beside = rest.filter((x) => !minority.includes(x));
        if (beside.length) {
          parts.push(
            `alongside ${beside.slice(0, 2).map((x) => `${x.c.label} in ${x.h.files.size} files`).join(' and ')}`,
          );
        }
      }
      if (naming) parts.push(naming);
      if (markers.length) {
        parts.push(
          `types shared across threads declare ${
            markers.map((x) => `${x.c.label} (${x.h.files.size} files)`).join(' and ')
          }`,
        );
      }
      if (offload.length) {
        parts.push(
          `work leaves the caller through ${
            offload.slice(0, 2).map((x) => `${x.c.label} (${x.h.files.size} files)`).join(' and ')
          }`,
        );
      }
      const summary = `${parts.join('; ')}.`;
      const title = guards.length
        ? `${FAMILY_LABEL[family]} shared state is guarded with ${wrapper ? `\`${wrapper.name}\`` : lead.c.label}`
        : `${FAMILY_LABEL[family]} work is concurrent through ${lead.c.label}`;
      const sources = [
        ...(wrapper ? [`${wrapper.path}:${wrapper.line}`] : []),
        ...used.slice(0, 4).flatMap((x) => [...x.h.files].slice(0, 2).map(([p, l]) => `${p}:${l}`)),
      ].slice(0, 8);
      const support = lead.h.files.size;
      out.push({
        title: title.slice(0, 100),
        knowledgeType: 'best-practice',
        dimension: DIMENSION[family] ?? 'best-practice',
        language: languageOf(family, ctx),
        category: 'concurrency',
        summary,
        code: '',
        reasoning: {
          whyStandard:
            'Counted over the production files: the constructs of the language that isolate state or move work, by the files that use each.',
          sources,
          confidence: confidence(guards.length ? 0.75 : 0.65, support * 2),
        },
        tags: ['concurrency', family],
        trigger: `${family}-concurrency-model`,
      });
    }
    return out;
  }

  /** A project type declared beside a lock and used from three other files or more: the lock idiom as a whole. */
  private lockWrapper(
    family: Family,
  ): { name: string; path: string; line: number; users: number; construct: string } | undefined {
    let best: ReturnType<ConcurrencyDetector['lockWrapper']>;
    for (const [key, owner] of this.lockOwners) {
      if (!key.startsWith(`${family}|`)) continue;
      // The declaring file may name the type itself: counted out.
      const users = (this.typeUsers.get(key) ?? 0) - 1;
      if (users >= 3 && (!best || users > best.users)) best = { name: key.slice(family.length + 1), ...owner, users };
    }
    return best;
  }

  /** How the lock is named where one name dominates: `mu.Lock()` in 7 of 9 files. */
  private lockNaming(family: Family): string | undefined {
    const names = this.lockNames.get(family);
    if (!names) return undefined;
    const all = new Set([...names.values()].flat());
    const [top] = [...names].sort((a, b) => new Set(b[1]).size - new Set(a[1]).size);
    const n = new Set(top[1]).size;
    if (all.size < 3 || n / all.size < 0.6) return undefined;
    const others = [...all].filter((p) => !top[1].includes(p));
    return `the lock is a field named \`${top[0]}\` in ${n} of ${all.size} files that take one${
      others.length ? ` (${filesSaid(others, 2)} ${others.length > 1 ? 'are the exceptions' : 'is the exception'})` : ''
    }`;
  }
}

const DIMENSION: Partial<Record<Family, string>> = {
  swift: 'swift-concurrency',
  go: 'go-concurrency',
  kotlin: 'kotlin-coroutines',
  python: 'python-async',
};
