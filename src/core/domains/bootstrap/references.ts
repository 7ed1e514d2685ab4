import type * as TS from '@vscode/tree-sitter-wasm';
import { grammarFor, TreeSitterHost } from '../guard/structural';

const IDENTIFIERS = [
  'identifier',
  'type_identifier',
  'constant',
  'property_identifier',
  'field_identifier',
  'shorthand_property_identifier',
  'package_identifier',
];
const IMPORTS =
  /^(import|use_declaration|use_list|scoped_use_list|use_as_clause|import_statement|import_from_statement|import_declaration|import_spec|import_specifier|import_clause|named_imports|namespace_import|package_clause|package_declaration|aliased_import|dotted_name|future_import_statement)/;
const DECLARES = /(declaration|definition|_item|declarator|parameter|variant|signature|_pattern_argument)$/;
const QUALIFIER_FIELDS = ['object', 'operand', 'path', 'scope', 'module', 'package'];

/**
 * Where a grammar loads (TypeScript, JavaScript, Python, Go, Rust, Java), finds the genuine uses of
 * a name in a file from its syntax tree: not a member or field (`x.name`, `Enum::Name`), not the
 * name a declaration or a parameter introduces, not a binding inside an import. Lexical resolution
 * decides which declaration a name refers to; this decides whether a name is there at all.
 */
export class ReferenceFinder {
  private readonly host = new TreeSitterHost();
  private readonly trees = new Map<string, TS.Tree | null>();
  /**
   * Per file, its identifier nodes by name, listed once: the cold start asks about several names in
   * the same files (277 questions about 79 files on 5,000 files of JavaScript), and listing every
   * identifier of a tree for each question was a third of its helpers' verification.
   */
  private readonly identifiers = new Map<string, Map<string, TS.Node[]>>();
  private parsed = 0;

  /**
   * @param budgetChars stop parsing (and fall back to the lexical answer) after this much source in
   * total: a size, not a time, so the same project gives the same candidates on a loaded machine.
   */
  constructor(private readonly budgetChars = 3_000_000) {}

  /** True when the language of `languageId` has a grammar that loads here. */
  async supports(languageId: string): Promise<boolean> {
    const g = grammarFor(languageId);
    if (!g) return false;
    try {
      await this.host.prepare(g);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The line of the first genuine use of `name` in `text`, `null` when there is none, or
   * `undefined` when the file could not be parsed (no grammar, over budget): then the caller keeps
   * its lexical answer. `qualifiers` are import aliases through which a qualified use counts (`pkg.Name`).
   */
  firstUse(
    key: string,
    languageId: string,
    text: string,
    name: string,
    qualifiers: string[] = [],
  ): number | null | undefined {
    const tree = this.tree(key, languageId, text);
    if (!tree) return undefined;
    let byName = this.identifiers.get(key);
    if (!byName) {
      byName = new Map();
      for (const node of tree.rootNode.descendantsOfType(IDENTIFIERS)) {
        if (!node) continue;
        const list = byName.get(node.text);
        if (list) list.push(node);
        else byName.set(node.text, [node]);
      }
      this.identifiers.set(key, byName);
    }
    let best: number | null = null;
    for (const node of byName.get(name) ?? []) {
      if (!isGenuineUse(node, qualifiers)) continue;
      const line = node.startPosition.row + 1;
      if (best === null || line < best) best = line;
    }
    return best;
  }

  private tree(key: string, languageId: string, text: string): TS.Tree | null | undefined {
    if (this.trees.has(key)) return this.trees.get(key) ?? undefined;
    const g = grammarFor(languageId);
    if (!g || !this.host.isReady(g) || this.parsed + text.length > this.budgetChars) return undefined;
    this.parsed += text.length;
    // No deadline per file either: a parse cut short by a slow moment would change the answer.
    const tree = this.host.parse(g, text) ?? null;
    this.trees.set(key, tree);
    return tree ?? undefined;
  }

  dispose(): void {
    this.identifiers.clear();
    for (const t of this.trees.values()) t?.delete();
    this.trees.clear();
    this.host.dispose();
  }
}

function isGenuineUse(node: TS.Node, qualifiers: string[]): boolean {
  const parent = node.parent;
  if (!parent) return false;
  for (let a: TS.Node | null = parent, depth = 0; a && depth < 4; a = a.parent, depth++) {
    if (IMPORTS.test(a.type)) return false;
  }
  const named = parent.childForFieldName('name');
  if (named && named.startIndex === node.startIndex && DECLARES.test(parent.type)) return false;
  for (const field of QUALIFIER_FIELDS) {
    const q = parent.childForFieldName(field);
    if (q && q.endIndex <= node.startIndex) return qualifiers.includes(q.text);
  }
  // A field or property name without an object before it (a struct field, a method) is not a use.
  if (
    (node.type === 'field_identifier' || node.type === 'property_identifier')
    && !/^(shorthand|pair_pattern)/.test(parent.type)
  ) return false;
  return true;
}
