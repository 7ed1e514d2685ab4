/**
 * Calls generated from a tool's published input schema: first a valid call (values drawn from what the
 * workspace really holds, so the handlers run deep), then zero to three mutations of it (wrong types,
 * lengths at and past the bounds, huge, deep, NUL, control and unicode strings, path attacks, unknown
 * and aliased fields, missing required ones, arguments that are not an object), and sometimes a name
 * that is not the tool's own.
 */
import type { JsonSchema } from '../../../src/core/ground/kernel/result';
import type { Random } from './random';
import {
  deepValue,
  exactLength,
  longString,
  NAME_ATTACKS,
  nameVariants,
  NASTY_NUMBERS,
  NASTY_STRINGS,
  pathAttacks,
  UNKNOWN_NAMES,
  wideObject,
} from './values';

export interface ToolSpec {
  name: string;
  access: 'read' | 'propose' | 'review';
  inputSchema: JsonSchema;
  maxOutputChars: number;
  aliases: Record<string, string>;
}

export interface FuzzCall {
  /** The name sent in tools/call. */
  name: string;
  /** The catalog tool the name means, when it means one (an agent's spelling of a review tool included). */
  tool?: ToolSpec;
  args: unknown;
  /** What was done to the call, for the report: 'valid', 'len-over', 'path', 'deep'… */
  kinds: string[];
  /** A path-taking field holds a path-attack form. */
  pathAttack: boolean;
}

/** Field names whose value is a path (or a node/id that may be one) in some tool. */
export const PATH_FIELDS = new Set([
  'path',
  'paths',
  'file',
  'files',
  'currentFile',
  'under',
  'script',
  'source',
  'sourceFiles',
  'node',
  'from',
  'to',
]);
/** Fields that name a skill, recipe or target, which some handlers turn into a folder or a file. */
const NAME_FIELDS = new Set(['name', 'skill', 'id', 'target', 'replacedBy', 'touched', 'ids', 'candidateIds']);

/** What valid values are drawn from; `harvest` adds what answers revealed (candidate ids, chunk ids…). */
export class ValuePools {
  private readonly harvested = new Map<string, string[]>();

  constructor(
    readonly fixed: {
      skills: string[];
      entries: string[];
      tools: string[];
      recipes: string[];
      targets: string[];
      rules: string[];
      outsideFiles: string[];
    },
  ) {}

  readonly attacks = () => (this.attackList ??= pathAttacks(this.fixed.outsideFiles));
  private attackList: string[] | undefined;

  /** Remembers ids and names an answer carried, so later calls can use real ones. */
  harvest(data: unknown): void {
    const visit = (v: unknown, key: string, depth: number) => {
      if (depth > 8) return;
      if (typeof v === 'string') {
        if (
          v.length > 0 && v.length <= 200
          && ['id', 'name', 'trigger', 'file', 'path', 'chunk', 'heading', 'ruleId', 'node'].includes(key)
        ) this.add(key, v);
        for (const m of v.slice(0, 20_000).matchAll(/\bcand-[0-9a-f]{6,}\b/g)) this.add('candidate', m[0]);
      } else if (Array.isArray(v)) v.slice(0, 50).forEach((x) => visit(x, key, depth + 1));
      else if (v && typeof v === 'object') { for (const [k, x] of Object.entries(v)) visit(x, k, depth + 1); }
    };
    visit(data, '', 0);
  }

  private add(kind: string, value: string): void {
    const list = this.harvested.get(kind) ?? [];
    if (list.includes(value)) return;
    list.push(value);
    if (list.length > 300) list.splice(0, list.length - 300);
    this.harvested.set(kind, list);
  }

  private got(kind: string): string[] {
    return this.harvested.get(kind) ?? [];
  }

  /** Real values for a field of a tool, or undefined when the field has no domain. */
  forField(tool: string, key: string): string[] | undefined {
    const f = this.fixed;
    const candidates = this.got('candidate');
    const recipeIds = [...f.recipes, ...this.got('trigger'), ...this.got('id').filter((x) => x.includes('/'))];
    const files = f.entries;
    switch (key) {
      case 'name':
        if (tool === 'get_tool_info') return f.tools.flatMap((t) => [t, `autosnippet_${t}`]);
        if (tool === 'run_pipeline') return ['bootstrap_full_pipeline'];
        return [...f.skills, ...this.got('name')];
      case 'skill':
        return f.skills;
      case 'chunk':
        return ['one', 'example', 'examples', ...this.got('chunk'), ...this.got('id')];
      case 'section':
        return ['Steps', 'Pitfalls', 'steps', ...this.got('heading')];
      case 'path':
        if (tool === 'read_skill_resource') {
          return ['SKILL.md', 'references/guide.md', 'scripts/echo.sh', ...this.got('path')];
        }
        return files;
      case 'paths':
      case 'currentFile':
      case 'files':
      case 'under':
      case 'sourceFiles':
        return files;
      case 'file':
        return ['drafts/cache-get.md', ...files];
      case 'script':
        return ['echo.sh', 'scripts/echo.sh', './echo.sh'];
      case 'id':
      case 'replacedBy':
        if (/recipe|usage|insights/.test(tool)) return recipeIds;
        return candidates.length ? candidates : ['cand-000000000000'];
      case 'ids':
      case 'candidateIds':
        return candidates.length ? candidates : ['cand-000000000000'];
      case 'touched':
        return recipeIds;
      case 'target':
        return [...f.targets, ...this.got('name')];
      case 'node':
      case 'from':
      case 'to':
        return [
          ...f.targets.map((t) => `target:${t}`),
          ...f.recipes.map((r) => `recipe:${r}`),
          'file:src/index.ts',
          'src/index.ts',
          ...f.targets,
          ...this.got('node'),
        ];
      case 'ruleId':
        return [...f.rules, ...this.got('ruleId')];
      case 'language':
        return [
          'typescript',
          'javascript',
          'swift',
          'python',
          'go',
          'rust',
          'java',
          'kotlin',
          'objective-c',
          'ts',
          'py',
          'c',
          'ruby',
          'klingon',
        ];
      case 'category':
        return ['http', 'users', 'networking', 'errors', 'ui'];
      case 'domain':
        return ['system', 'skills', 'knowledge', 'search', 'graph', 'structure', 'guard', 'agent'];
      case 'action':
        return f.tools;
      case 'since':
        return ['2020-01-01T00:00:00Z', new Date().toISOString(), 'yesterday', '9999-12-31'];
      case 'query':
      case 'filter':
        return [
          'fetch json with a timeout',
          'user',
          'getJson',
          'add a field to User',
          'guard rules',
          'http',
          'retry',
          'find user by id',
          '如何处理网络请求',
        ];
      case 'code':
        return [
          'const r = await fetch("/api");',
          'eval("1 + 1");\n',
          'export function add(a: number, b: number) { return a + b; }',
          'let x = y!;\nconsole.log(x as any);\n',
          'try { f() } catch (e) {}',
          'func f() { let x = y as! Int }',
        ];
      case 'title':
        return [
          'Wrap HTTP calls in withRetry',
          'Call HTTP APIs through getJson',
          'Log errors with context',
          'Find users through the repository',
        ];
      case 'relation':
        return ['dependsOn', 'depends-on', 'uses', 'contains'];
      case 'origin':
        return tool === 'guard_rules' ? ['builtin', 'project'] : ['bootstrap', 'agent', 'mcp'];
      case 'markdown':
        return [
          '---\ntitle: Cache GET responses\nsummary: Cache GET responses for 60 s.\n---\n',
          '---\ntitle: x\n---\nbody',
          'no front matter at all',
        ];
      default:
        return undefined;
    }
  }
}

const MUTATIONS = [
  [10, 'wrong-type'],
  [6, 'len-max'],
  [8, 'len-over'],
  [3, 'len-under'],
  [4, 'huge'],
  [12, 'nasty'],
  [14, 'path'],
  [5, 'name-attack'],
  [7, 'int-edge'],
  [5, 'enum-miss'],
  [6, 'array-edge'],
  [4, 'deep'],
  [5, 'unknown-field'],
  [5, 'alias'],
  [5, 'drop-required'],
  [1, 'wide'],
  [2, 'non-object'],
  [2, 'empty'],
] as const;

type Mutation = (typeof MUTATIONS)[number][1];

/** The call generator of one lane. */
export class CallGenerator {
  private readonly agentTools: ToolSpec[];
  private readonly reviewTools: ToolSpec[];

  constructor(
    private readonly rnd: Random,
    tools: ToolSpec[],
    private readonly pools: ValuePools,
  ) {
    this.agentTools = tools.filter((t) => t.access !== 'review');
    this.reviewTools = tools.filter((t) => t.access === 'review');
  }

  /** A call to `tool` (or a random agent tool), valid or mutated. */
  next(tool?: ToolSpec): FuzzCall {
    const rnd = this.rnd;
    const roll = rnd.next();
    if (!tool && roll < 0.02) return this.unknownName();
    if (!tool && roll < 0.1) return this.reviewAttempt();
    const spec = tool ?? rnd.pick(this.agentTools);
    const call = this.callTo(spec);
    // Now and then the tool is called by another spelling of its name.
    if (rnd.chance(0.04)) {
      call.name = rnd.pick(nameVariants(spec.name));
      call.kinds.push('name-variant');
      if (!['autosnippet_' + spec.name, spec.name].includes(call.name)) call.tool = undefined;
    } else call.name = `autosnippet_${spec.name}`;
    return call;
  }

  /** A call to `spec` under its own name (an agent's attempt, for a review tool): each tool once, first. */
  first(spec: ToolSpec): FuzzCall {
    if (spec.access === 'review') return this.reviewAttempt(spec);
    const call = this.callTo(spec);
    call.name = `autosnippet_${spec.name}`;
    return call;
  }

  /** An agent's attempt at a people-only tool: by any spelling, valid arguments or not. */
  reviewAttempt(spec = this.rnd.pick(this.reviewTools)): FuzzCall {
    const call = this.callTo(spec);
    call.name = this.rnd.chance(0.5) ? `autosnippet_${spec.name}` : this.rnd.pick(nameVariants(spec.name));
    call.kinds.unshift('review');
    return call;
  }

  private unknownName(): FuzzCall {
    const rnd = this.rnd;
    const name = rnd.weighted<() => string>([
      [6, () => rnd.pick(UNKNOWN_NAMES)],
      [2, () => rnd.pick(NASTY_STRINGS)],
      [1, () => longString(rnd, rnd.pick([300, 10_000, 100_000, 1_000_000]))],
    ])();
    return {
      name,
      args: rnd.chance(0.7) ? {} : { id: 'x', confirm: true },
      kinds: ['unknown-name'],
      pathAttack: false,
    };
  }

  callTo(spec: ToolSpec): FuzzCall {
    const rnd = this.rnd;
    const call: FuzzCall = { name: spec.name, tool: spec, args: this.validArgs(spec), kinds: [], pathAttack: false };
    const n = rnd.weighted(
      [
        [25, 0],
        [45, 1],
        [20, 2],
        [10, 3],
      ] as const,
    );
    if (n === 0) call.kinds.push('valid');
    for (let i = 0; i < n; i++) this.mutate(call, spec, rnd.weighted(MUTATIONS));
    return call;
  }

  private validArgs(spec: ToolSpec): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    const props = spec.inputSchema.properties ?? {};
    const required = new Set(spec.inputSchema.required ?? []);
    for (const [key, schema] of Object.entries(props)) {
      if (key === 'cursor' && !this.rnd.chance(0.15)) continue;
      if (required.has(key) || this.rnd.chance(0.45)) args[key] = this.valid(schema, key, spec.name, 0);
    }
    return args;
  }

  /** A value that matches `schema`, from the field's real values when it has some. */
  valid(schema: JsonSchema, key: string, tool: string, depth: number): unknown {
    const rnd = this.rnd;
    if (schema.enum) return rnd.pick(schema.enum);
    if ('const' in schema) return (schema as { const: unknown }).const;
    const type = Array.isArray(schema.type) ? rnd.pick(schema.type) : schema.type;
    switch (type) {
      case 'string': {
        const pool = this.pools.forField(tool, key);
        const max = schema.maxLength ?? 200;
        const min = schema.minLength ?? 0;
        if (pool && pool.length && rnd.chance(0.85)) {
          const v = rnd.pick(pool);
          if (Array.from(v).length <= max && v.length >= min) return v;
        }
        return exactLength(rnd, rnd.int(Math.max(min, 1), Math.max(min, Math.min(max, 40)))).replace(/\u0000/g, 'z');
      }
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? 0;
        const max = schema.maximum ?? min + 100;
        return rnd.weighted(
          [
            [1, min],
            [1, max],
            [3, rnd.int(min, Math.min(max, min + 50))],
          ] as const,
        );
      }
      case 'boolean':
        return rnd.chance(0.5);
      case 'array': {
        const items = (schema.items ?? {}) as JsonSchema;
        const n = rnd.int(schema.minItems ?? 0, Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)));
        return Array.from({ length: n }, () => this.valid(items, key, tool, depth + 1));
      }
      case 'object': {
        if (depth > 4) return {};
        const out: Record<string, unknown> = {};
        const required = new Set(schema.required ?? []);
        for (const [k, s] of Object.entries(schema.properties ?? {})) {
          if (required.has(k) || rnd.chance(0.4)) out[k] = this.valid(s, k, tool, depth + 1);
        }
        if (!schema.properties && rnd.chance(0.5)) out.maxFiles = rnd.int(1, 50);
        return out;
      }
      default:
        return rnd.pick(['x', 1, true, null, {}, []]);
    }
  }

  private mutate(call: FuzzCall, spec: ToolSpec, kind: Mutation): void {
    const rnd = this.rnd;
    if (kind === 'non-object') {
      call.args = rnd.pick([[], [1, 2], 'arguments', 42, true, null, [{ id: 'x' }]]);
      call.kinds.push(kind);
      return;
    }
    if (!isRecord(call.args)) return;
    const args = call.args;
    const props = spec.inputSchema.properties ?? {};
    const keys = Object.keys(props);
    if (kind === 'empty') {
      for (const k of Object.keys(args)) delete args[k];
      call.kinds.push(kind);
      return;
    }
    if (kind === 'unknown-field') {
      setOwn(
        args,
        rnd.pick([
          'verbose',
          'actor',
          '__proto__',
          'constructor',
          'prototype',
          'x'.repeat(rnd.pick([1, 5000])),
          '',
          'name\u0000',
          'ID',
        ]),
        rnd.pick<unknown>(['human', true, { polluted: true }, 1, null]),
      );
      call.kinds.push(kind);
      return;
    }
    if (kind === 'wide') {
      Object.assign(args, wideObject(rnd.pick([1000, 10_000])));
      call.kinds.push(kind);
      return;
    }
    if (kind === 'alias') {
      const aliases = Object.entries(spec.aliases);
      if (aliases.length === 0) return;
      const [alias, canonical] = rnd.pick(aliases);
      const value = canonical in args
        ? args[canonical]
        : props[canonical]
        ? this.valid(props[canonical], canonical, spec.name, 0)
        : 'x';
      if (rnd.chance(0.7)) delete args[canonical];
      args[alias] = value;
      call.kinds.push(kind);
      return;
    }
    if (kind === 'drop-required') {
      const required = spec.inputSchema.required ?? [];
      if (required.length === 0) return;
      delete args[rnd.pick(required)];
      call.kinds.push(kind);
      return;
    }
    if (keys.length === 0) {
      if (kind === 'deep' || kind === 'wrong-type') {
        args.extra = deepValue(rnd, rnd.pick([3, 17, 200]));
        call.kinds.push(kind);
      }
      return;
    }

    // The rest change one field; some need a field of a certain kind.
    const fieldsOf = (pred: (s: JsonSchema, k: string) => boolean) => keys.filter((k) => pred(props[k], k));
    const pickField = (pred: (s: JsonSchema, k: string) => boolean): string | undefined => {
      const found = fieldsOf(pred);
      return found.length ? rnd.pick(found) : undefined;
    };
    const isString = (s: JsonSchema) => s.type === 'string' && !s.enum;
    const isStringList = (s: JsonSchema) =>
      s.type === 'array' && (s.items as JsonSchema | undefined)?.type === 'string';

    switch (kind) {
      case 'wrong-type': {
        const k = rnd.pick(keys);
        args[k] = wrongTypeFor(rnd, props[k]);
        break;
      }
      case 'len-max':
      case 'len-over':
      case 'len-under': {
        const k = pickField((s) => isString(s) || isStringList(s));
        if (!k) return;
        const s = isString(props[k]) ? props[k] : (props[k].items as JsonSchema);
        const max = s.maxLength ?? 1000;
        const len = kind === 'len-max' ? max : kind === 'len-over' ? max + 1 : (s.minLength ?? 0) - 1;
        if (len < 0) return;
        const value = exactLength(rnd, len);
        args[k] = isString(props[k]) ? value : [value];
        break;
      }
      case 'huge': {
        const k = pickField((s) => isString(s) || isStringList(s)) ?? rnd.pick(keys);
        const value = longString(
          rnd,
          rnd.weighted(
            [
              [6, 10_000],
              [4, 100_000],
              [2, 1_000_000],
              [1, 2_500_000],
            ] as const,
          ),
        );
        args[k] = isStringList(props[k]) ? [value] : value;
        break;
      }
      case 'nasty': {
        const k = pickField((s) => isString(s) || isStringList(s));
        if (!k) return;
        const nasty = rnd.pick(NASTY_STRINGS);
        const base = typeof args[k] === 'string' ? (args[k] as string) : '';
        const value = rnd.weighted<() => string>([
          [3, () => nasty],
          [1, () => base + nasty],
          [1, () => nasty + base],
          [1, () => `${base.slice(0, 3)}${nasty}${base.slice(3)}`],
        ])();
        args[k] = isStringList(props[k]) ? [value] : value;
        break;
      }
      case 'path': {
        const k = pickField((s, key) => PATH_FIELDS.has(key) && (isString(s) || isStringList(s)))
          ?? (rnd.chance(0.3) ? pickField((s) => isString(s) || isStringList(s)) : undefined);
        if (!k) return;
        const attack = rnd.pick(this.pools.attacks());
        const value = ['node', 'from', 'to'].includes(k) && rnd.chance(0.5) ? `file:${attack}` : attack;
        args[k] = isStringList(props[k]) ? (rnd.chance(0.5) ? [value] : ['src/index.ts', value]) : value;
        if (PATH_FIELDS.has(k)) call.pathAttack = true;
        break;
      }
      case 'name-attack': {
        const k = pickField((s, key) => NAME_FIELDS.has(key) && (isString(s) || isStringList(s)));
        if (!k) return;
        const value = rnd.chance(0.7) ? rnd.pick(NAME_ATTACKS) : rnd.pick(this.pools.attacks());
        args[k] = isStringList(props[k]) ? [value] : value;
        call.pathAttack = true;
        break;
      }
      case 'int-edge': {
        const k = pickField((s) => s.type === 'integer' || s.type === 'number');
        if (!k) return;
        const s = props[k];
        args[k] = rnd.weighted<() => unknown>([
          [2, () => (s.minimum ?? 0) - 1],
          [2, () => (s.maximum ?? 1e9) + 1],
          [1, () => s.minimum ?? 0],
          [1, () => s.maximum ?? 1e9],
          [3, () => rnd.pick(NASTY_NUMBERS)],
          [1, () => String(s.minimum ?? 1)],
        ])();
        break;
      }
      case 'enum-miss': {
        const k = pickField((s) => Boolean(s.enum));
        if (!k) return;
        const v = String(rnd.pick(props[k].enum!));
        args[k] = rnd.pick([v.toUpperCase(), ` ${v}`, `${v}\u0000`, v.slice(0, -1), `${v}s`, '', 'any', 'all', '*']);
        break;
      }
      case 'array-edge': {
        const k = pickField((s) => s.type === 'array');
        if (!k) return;
        const s = props[k];
        const item = () => this.valid((s.items ?? {}) as JsonSchema, k, spec.name, 1);
        args[k] = rnd.weighted<() => unknown>([
          [2, () => []],
          [2, () => Array.from({ length: s.maxItems ?? 50 }, item)],
          [3, () => Array.from({ length: (s.maxItems ?? 50) + 1 }, item)],
          [1, () => Array.from({ length: 5000 }, () => 'x')],
          [2, () => [1, null, {}, [], true]],
          [1, () => [[[[item()]]]]],
        ])();
        break;
      }
      case 'deep': {
        const k = rnd.pick(keys);
        args[k] = deepValue(
          rnd,
          rnd.weighted(
            [
              [2, 15],
              [2, 16],
              [3, 17],
              [2, 100],
              [1, 3000],
            ] as const,
          ),
        );
        break;
      }
    }
    call.kinds.push(kind);
  }
}

function wrongTypeFor(rnd: Random, schema: JsonSchema): unknown {
  const all: unknown[] = ['text', 42, 1.5, true, null, [], ['a'], {}, { a: 1 }];
  const type = schema.type;
  const wrong = all.filter((v) => {
    const t = v === null
      ? 'null'
      : Array.isArray(v)
      ? 'array'
      : typeof v === 'object'
      ? 'object'
      : typeof v === 'number'
      ? (Number.isInteger(v) ? 'integer' : 'number')
      : typeof v;
    if (type === 'number') return t !== 'number' && t !== 'integer';
    return t !== type;
  });
  return rnd.pick(wrong);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own property, `__proto__` included (an assignment would change the prototype instead). */
function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `approveCandidate`, `autosnippet.approve-candidate`, `mcp__autosnippet__approve_candidate` → the tool it spells. */
export function toolMeant(name: string, tools: ToolSpec[]): ToolSpec | undefined {
  const canonical = name
    .slice(0, 200)
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(mcp_|functions_)?(autosnippet_)*/, '');
  return tools.find((t) => t.name === canonical);
}

/** The arguments as the server sees them: a JSON round trip, then the tool's aliases mapped as the catalog maps them. */
export function asServerSees(args: unknown, spec: ToolSpec | undefined): unknown {
  const json = JSON.stringify(args);
  const seen: unknown = json === undefined ? undefined : JSON.parse(json);
  if (!spec || !isRecord(seen)) return seen;
  const value = { ...seen };
  for (const [alias, canonical] of Object.entries(spec.aliases)) {
    if (Object.prototype.hasOwnProperty.call(value, alias)) {
      if (!Object.prototype.hasOwnProperty.call(value, canonical)) value[canonical] = value[alias];
      delete value[alias];
    }
  }
  return value;
}
