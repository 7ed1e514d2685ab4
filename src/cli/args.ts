// Command-line arguments with node:util's parseArgs, and the flags of every catalog tool derived from
// its input schema: `autosnippet list-recipes --status any --limit 5`.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { AnyTool, ToolCatalog } from '../core/catalog';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs in strict mode; its errors become usage errors (exit code 2). */
export function parse(
  args: string[],
  options: Options,
  allowPositionals = true,
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals, strict: true });
    return { values: values as Record<string, string | boolean | string[] | undefined>, positionals };
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
}

/** A whole number from an option's text, or a usage error naming the option. */
export function wholeNumber(
  value: string | undefined,
  flag: string,
  min = Number.MIN_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(
      `${flag} takes a whole number${min > Number.MIN_SAFE_INTEGER ? ` of at least ${min}` : ''}, not "${value}"`,
    );
  }
  return Number(value);
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropertySchema;
  description?: string;
  default?: unknown;
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** The tool a command names: `list-recipes`, `list_recipes` or `autosnippet_list_recipes`. */
export function toolOfCommand(catalog: ToolCatalog, command: string): AnyTool | undefined {
  return catalog.get(command.replace(/-/g, '_'));
}

/** One flag per input field: booleans are switches, lists repeat, objects take JSON; `--json` prints the envelope. */
export function toolFlags(
  catalog: ToolCatalog,
  tool: AnyTool,
): { options: Options; fields: Map<string, { name: string; schema: PropertySchema }> } {
  const options: Options = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };
  const fields = new Map<string, { name: string; schema: PropertySchema }>();
  for (
    const [name, schema] of Object.entries(catalog.inputSchema(tool).properties ?? {}) as [string, PropertySchema][]
  ) {
    const flag = kebab(name);
    if (flag === 'json' || flag === 'help') continue;
    fields.set(flag, { name, schema });
    options[flag] = schema.type === 'boolean'
      ? { type: 'boolean' }
      : schema.type === 'array'
      ? { type: 'string', multiple: true }
      : { type: 'string' };
  }
  return { options, fields };
}

/** The tool's input from its flags, converted to the schema's types (the catalog validates the rest). */
export function toolInput(
  catalog: ToolCatalog,
  tool: AnyTool,
  args: string[],
): { input: Record<string, unknown>; json: boolean; help: boolean } {
  const { options, fields } = toolFlags(catalog, tool);
  const { values, positionals } = parse(args, options, false);
  void positionals;
  const input: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(values)) {
    const field = fields.get(flag);
    if (!field || value === undefined) continue;
    input[field.name] = convert(value, field.schema, `--${flag}`);
  }
  return { input, json: values.json === true, help: values.help === true };
}

function convert(value: string | boolean | string[], schema: PropertySchema, flag: string): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, schema.items ?? {}, flag));
  if (typeof value === 'boolean') return value;
  switch (schema.type) {
    case 'integer':
      return wholeNumber(value, flag);
    case 'number': {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new UsageError(`${flag} takes a number, not "${value}"`);
      return n;
    }
    case 'object':
    case undefined:
      if (schema.type === 'object' || /^[[{]/.test(value)) {
        try {
          return JSON.parse(value);
        } catch {
          throw new UsageError(`${flag} takes JSON, e.g. '{"key": "value"}'`);
        }
      }
      return value;
    default:
      return value;
  }
}

/** The usage of a tool's command, from its schema. */
export function toolUsage(catalog: ToolCatalog, tool: AnyTool): string {
  const { fields } = toolFlags(catalog, tool);
  const required = new Set(catalog.inputSchema(tool).required ?? []);
  const lines = [
    `Usage: autosnippet ${kebab(tool.name).replace(/_/g, '-')} [options]`,
    '',
    tool.description,
    '',
    'Options:',
  ];
  for (const [flag, { name, schema }] of fields) {
    const kind = schema.type === 'boolean'
      ? ''
      : schema.enum
      ? ` ${schema.enum.join('|')}`
      : schema.type === 'array'
      ? ' VALUE (repeat)'
      : schema.type === 'object'
      ? ' JSON'
      : ` ${(schema.type ?? 'VALUE').toString().toUpperCase()}`;
    lines.push(
      `  --${flag}${kind}${required.has(name) ? ' (required)' : ''}${
        schema.description ? `  ${schema.description}` : ''
      }`,
    );
  }
  lines.push(
    '  --json  print the whole result envelope as JSON',
    '  -h, --help  this help',
    '',
    'Exit codes: 0 success, 1 the tool answered an error, 2 usage error.',
  );
  return lines.join('\n') + '\n';
}
