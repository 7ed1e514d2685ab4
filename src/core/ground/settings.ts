/**
 * Every setting, in one table: its schema (which is also its TypeScript type) and its description.
 * package.json's `contributes.configuration` and the reference's table are generated from it (a unit
 * test fails when they drift: `npm run gen:manifest`). VS Code fills the values from its settings;
 * the CLI and the MCP server from `.autosnippet/settings.json` (same keys, read only, optional).
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseJson, readRepoFileSync } from './files';
import { FILE_KINDS, type FileKind } from './files/classify';
import { isAutoSnippetError } from './kernel/errors';
import type { Logger } from './kernel/log';
import { decideTrust, userDataDir } from './trust';

const SEVERITY_OR_OFF = ['error', 'warning', 'info', 'hint', 'off'];

/** Key (after `autosnippet.`) → schema with default and description; `editor: true` only matters inside VS Code. */
export const SETTINGS = {
  'skills.allowScripts': {
    schema: Type.Boolean({
      default: false,
      scope: 'application',
      markdownDescription:
        "Allow agents to run scripts from a skill's `scripts/` folder (only in a trusted workspace; every run is confirmed). Only your user settings count: a repository's settings cannot turn it on.",
    }),
    summary:
      "Let agents run skill scripts (trusted folders only; confirmed each time; user settings only, a repository's settings cannot turn it on).",
    widens: (v: unknown) => v === true,
  },
  'guard.enabled': {
    schema: Type.Boolean({ default: true, description: 'Check code against the guard rules.' }),
    summary: 'Check code against the guard rules.',
  },
  'guard.severityOverrides': {
    schema: Type.Unsafe<Record<string, 'error' | 'warning' | 'info' | 'hint' | 'off'>>({
      type: 'object',
      default: {},
      additionalProperties: { enum: SEVERITY_OR_OFF },
      markdownDescription:
        'Severity per rule id; `off` turns a rule off, and a severity turns on rules that are off by default.',
    }),
    summary: 'Severity per rule id; `off` turns a rule off, a severity turns on a rule that is off by default.',
  },
  'guard.exclude': {
    schema: Type.Array(Type.String(), {
      default: [],
      description: 'Workspace-relative globs guard never checks (in addition to .gitignore).',
    }),
    summary: 'Globs guard never checks (besides `.gitignore`).',
  },
  'guard.checkOn': {
    schema: Type.Unsafe<'type' | 'save'>({
      type: 'string',
      enum: ['type', 'save'],
      default: 'type',
      enumDescriptions: ['Check while typing (debounced), on open and on save.', 'Check only on open and on save.'],
      description: 'When guard checks an open file.',
    }),
    summary: '`type`: while typing (debounced), on open and save; `save`: on open and save only.',
    editor: true,
  },
  'guard.skipKinds': {
    schema: Type.Array(Type.Unsafe<FileKind>({ enum: [...FILE_KINDS] }), {
      default: ['vendored', 'generated', 'minified'],
      markdownDescription:
        "Kinds of files guard does not check, as it classifies them by their ecosystem's conventions (folders such as `vendor/`, `*.min.js`, a `// Code generated … DO NOT EDIT.` header).",
    }),
    summary: 'Kinds of files guard does not check (`vendored`, `generated`, `minified`, `test`, …).',
  },
  'guard.showBaselined': {
    schema: Type.Boolean({
      default: false,
      markdownDescription:
        "Show findings recorded in the project's baseline (`.autosnippet/guard/baseline.json`, written by `autosnippet guard --baseline write`) in the Problems panel, as hints. Off: only new findings are shown.",
    }),
    summary: 'Show baselined findings in the Problems panel, as hints.',
    editor: true,
  },
  'agent.useOtherTools': {
    schema: Type.Boolean({
      default: false,
      scope: 'application',
      markdownDescription:
        "Let `@autosnippet` also offer the model tools that other extensions and MCP servers registered in VS Code, the most relevant to the request first, within the model's tool limit. Off: only AutoSnippet's own tools.",
    }),
    summary: 'Let `@autosnippet` also offer tools other extensions and MCP servers registered (user settings only).',
    editor: true,
    widens: (v: unknown) => v === true,
  },
  'tools.offered': {
    schema: Type.Unsafe<'default' | 'all'>({
      type: 'string',
      enum: ['default', 'all'],
      default: 'default',
      enumDescriptions: [
        'The everyday tools in full (health, skills, search, guard check, propose); the rest through list_tools, get_tool_info and call_tool.',
        'Every tool in full, as separate tools.',
      ],
      markdownDescription:
        'Which AutoSnippet tools agents are offered in full, in agent mode and over MCP (`--tools` of the MCP server overrides it). Every tool stays reachable through `call_tool` either way. Restart the AutoSnippet MCP server after a change.',
    }),
    summary:
      '`default`: the everyday tools in full, the rest through `call_tool`; `all`: every tool in full (agent mode and MCP).',
  },
  'recipes.triggerCompletion': {
    schema: Type.Boolean({
      default: true,
      scope: 'resource',
      markdownDescription: "Typing a recipe's trigger (`@name`) offers its code as a snippet.",
    }),
    summary: "Typing a recipe's trigger offers its code as a snippet.",
    editor: true,
  },
  'export.onPublish': {
    schema: Type.Array(
      Type.Unsafe<'agents' | 'copilot' | 'claude' | 'cursor'>({
        type: 'string',
        enum: ['agents', 'copilot', 'claude', 'cursor'],
      }),
      {
        uniqueItems: true,
        default: [],
        scope: 'resource',
        markdownDescription:
          'Re-export the published recipes to these agent instruction files whenever a recipe is published, deprecated or edited (`agents`: AGENTS.md, `copilot`, `claude`, `cursor`). Empty (the default): nothing is written until you run **AutoSnippet: Export Recipes to Agent Instruction Files…**.',
      },
    ),
    summary:
      'Re-export to these targets (`agents`, `copilot`, `claude`, `cursor`) when the published recipes change; empty: only when you run the export.',
    editor: true,
  },
} satisfies Record<string, SettingSpec>;

/**
 * `widens`: the values that let an agent or a rule do more than the default. A repository's files
 * (`.autosnippet/settings.json`, `.vscode/settings.json`) may narrow what AutoSnippet does, never
 * widen it, so such a value counts only from the person's own settings.
 */
interface SettingSpec {
  schema: TSchema;
  summary: string;
  editor?: boolean;
  widens?: (value: unknown) => boolean;
}

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = Static<(typeof SETTINGS)[K]['schema']>;
export type SettingValues = { [K in SettingKey]: SettingValue<K> };

export const SETTINGS_PREFIX = 'autosnippet.';

/** Whether `value` of `key` lets agents or rules do more than the default (see `SettingSpec.widens`). */
export function widens(key: SettingKey, value: unknown): boolean {
  return (SETTINGS[key] as SettingSpec).widens?.(value) === true;
}

export function settingDefault<K extends SettingKey>(key: K): SettingValue<K> {
  return structuredClone(SETTINGS[key].schema.default) as SettingValue<K>;
}

/** Settings the core reads, grouped by domain. */
export interface Settings {
  skills: { allowScripts: boolean };
  guard: {
    enabled: boolean;
    exclude: string[];
    severityOverrides: Record<string, string>;
    /** Kinds of files guard does not check (see files/classify.ts). */
    skipKinds: FileKind[];
  };
  /** False in an untrusted folder (VS Code's workspace trust, or the trust store outside it): project guard rules and skill scripts do not run. */
  trusted: boolean;
  /** What trusted the folder, or how to trust it: said with every refusal that trust explains. */
  trustNote?: string;
}

/** The core's settings from values by key (missing ones take their default). */
export function settingsFrom(values: Partial<SettingValues>, trusted = true, trustNote?: string): Settings {
  const get = <K extends SettingKey>(key: K): SettingValue<K> =>
    (values[key] ?? settingDefault(key)) as SettingValue<K>;
  return {
    skills: { allowScripts: get('skills.allowScripts') },
    guard: {
      enabled: get('guard.enabled'),
      exclude: get('guard.exclude'),
      severityOverrides: get('guard.severityOverrides'),
      skipKinds: get('guard.skipKinds'),
    },
    trusted,
    ...(trustNote ? { trustNote } : {}),
  };
}

export const defaultSettings: Settings = settingsFrom({});

export function mergeSettings(partial?: DeepPartial<Settings>): Settings {
  return {
    skills: { ...defaultSettings.skills, ...partial?.skills },
    guard: { ...defaultSettings.guard, ...(partial?.guard as Settings['guard'] | undefined) },
    trusted: partial?.trusted ?? defaultSettings.trusted,
    ...(partial?.trustNote ? { trustNote: partial.trustNote } : {}),
  };
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** package.json's `contributes.configuration`. */
export function configurationManifest(): { title: string; properties: Record<string, object> } {
  return {
    title: 'AutoSnippet',
    properties: Object.fromEntries(
      Object.entries(SETTINGS).map(([key, s]) => [SETTINGS_PREFIX + key, JSON.parse(JSON.stringify(s.schema))]),
    ),
  };
}

/** The reference's settings table (docs/reference.md). */
export function settingsTable(): string {
  const rows = Object.entries(SETTINGS).map(([key, s]) =>
    `| \`${SETTINGS_PREFIX}${key}\` | \`${JSON.stringify(s.schema.default)}\` | ${s.summary.replace(/\|/g, '\\|')}${
      'editor' in s && s.editor ? ' (VS Code only)' : ''
    } |`
  );
  return ['| setting | default | what it does |', '|---|---|---|', ...rows].join('\n');
}

export const SETTINGS_FILE = '.autosnippet/settings.json';
const MAX_SETTINGS_BYTES = 256 * 1024;

/**
 * The settings of `.autosnippet/settings.json` for the CLI and the MCP server: the keys of VS Code's
 * settings (`"autosnippet.guard.exclude": ["dist/**"]`). Read only; a missing file is no error and is
 * never created. A value of the wrong type is reported and its default used; the others still apply.
 * A value that would widen what agents may do is ignored with a warning (see `SettingSpec.widens`).
 */
export function readSettingsFile(root: string, log: Logger): Partial<SettingValues> {
  // Through the safe reader: a regular file inside the workspace, capped, under a deadline.
  let text: string;
  try {
    text = readRepoFileSync(root, SETTINGS_FILE, { kind: 'config', maxBytes: MAX_SETTINGS_BYTES }).text;
  } catch (e) {
    if (!(isAutoSnippetError(e) && e.code === 'NOT_FOUND')) {
      log.warn(`${SETTINGS_FILE} is ignored: ${(e as Error).message}`);
    }
    return {};
  }
  const values = settingsOfJson(text, SETTINGS_FILE, log);
  for (const [key, value] of Object.entries(values)) {
    if (!widens(key as SettingKey, value)) continue;
    delete (values as Record<string, unknown>)[key];
    log.warn(
      `${SETTINGS_FILE}: "${SETTINGS_PREFIX}${key}": ${
        JSON.stringify(value)
      } is ignored: a repository's files may narrow what agents may do, never widen it. Set it in your own ${USER_SETTINGS_NAME}.`,
    );
  }
  return values;
}

const USER_SETTINGS_NAME = '~/.autosnippet/settings.json';

/** The person's own settings (`~/.autosnippet/settings.json`, or under AUTOSNIPPET_HOME): every key, widening ones included. */
export function readUserSettingsFile(log: Logger, env: NodeJS.ProcessEnv = process.env): Partial<SettingValues> {
  const file = path.join(userDataDir(env), 'settings.json');
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_SETTINGS_BYTES) {
      log.warn(`${file} is ignored: it is not a regular file under ${MAX_SETTINGS_BYTES} bytes.`);
      return {};
    }
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`${file} is ignored: ${(e as Error).message}`);
    return {};
  }
  return settingsOfJson(text, file, log);
}

/**
 * The settings of the CLI and the MCP server: the person's own settings, then the project's (which
 * win, except that they cannot widen), and trust from `--trust` or the trust store.
 */
export function settingsOutsideEditor(
  root: string,
  log: Logger,
  opts: { trust?: boolean; env?: NodeJS.ProcessEnv } = {},
  values = settingValuesOutsideEditor(root, log, opts.env),
): Settings {
  const trust = decideTrust(root, { flag: opts.trust, env: opts.env });
  return settingsFrom(values, trust.trusted, trust.note);
}

/** The values themselves: the person's settings overlaid with the project's (which cannot widen). */
export function settingValuesOutsideEditor(root: string, log: Logger, env?: NodeJS.ProcessEnv): Partial<SettingValues> {
  return { ...readUserSettingsFile(log, env), ...readSettingsFile(root, log) };
}

function settingsOfJson(text: string, subject: string, log: Logger): Partial<SettingValues> {
  const parsed = parseJson(text, { subject });
  if (!parsed.ok) {
    log.warn(`${subject} is ignored: ${parsed.problem.message}`);
    return {};
  }
  const raw = parsed.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    log.warn(`${subject} is ignored: it must be a JSON object of settings.`);
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const key = name.startsWith(SETTINGS_PREFIX) ? name.slice(SETTINGS_PREFIX.length) : name;
    const setting = (SETTINGS as Record<string, { schema: TSchema }>)[key];
    if (!setting) {
      log.warn(
        `${subject}: unknown setting "${name}" is ignored. Settings: ${
          Object.keys(SETTINGS).map((k) => SETTINGS_PREFIX + k).join(', ')
        }.`,
      );
      continue;
    }
    const problem = mismatch(setting.schema, value);
    if (problem) log.warn(`${subject}: "${name}" is ignored: ${problem}.`);
    else out[key] = value;
  }
  return out as Partial<SettingValues>;
}

/** Why `value` does not fit a setting's schema (the few shapes settings have), or undefined. */
function mismatch(schema: TSchema, value: unknown): string | undefined {
  const s = schema as {
    type?: string;
    enum?: unknown[];
    items?: TSchema;
    additionalProperties?: TSchema;
    patternProperties?: Record<string, TSchema>;
  };
  if (s.enum && !s.enum.includes(value)) return `it must be one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  switch (s.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'it must be true or false';
    case 'string':
      return typeof value === 'string' ? undefined : 'it must be a string';
    case 'array': {
      if (!Array.isArray(value)) return 'it must be a list';
      const bad = s.items ? value.findIndex((v) => mismatch(s.items!, v)) : -1;
      return bad === -1 ? undefined : `${JSON.stringify(value[bad])} in the list: ${mismatch(s.items!, value[bad])}`;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it must be an object';
      const each = s.additionalProperties ?? Object.values(s.patternProperties ?? {})[0];
      const bad = each ? Object.entries(value).find(([, v]) => mismatch(each, v)) : undefined;
      return bad ? `"${bad[0]}": ${mismatch(each!, bad[1])}` : undefined;
    }
    default:
      return undefined;
  }
}
