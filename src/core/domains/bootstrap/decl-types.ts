/** A declaration as the fact layer records it: shared by facts.ts and the shape reader it uses. */
export type Visibility = 'public' | 'internal' | 'private';

export type DeclKind = 'function' | 'type' | 'constant';

export interface DeclFact {
  name: string;
  kind: DeclKind;
  line: number;
  exported: boolean;
  /** For classes: the base class or first conformance, when declared. */
  base?: string;
  /** Every supertype declared (Swift conformances, Kotlin supertypes, Python bases), in order. */
  bases?: string[];
  /**
   * `public`: part of what the module offers outside (exported, `pub`, `public`); `internal`:
   * visible across the module or package but not outside it (Kotlin/Swift `internal`, Rust
   * `pub(crate)`, Go lower-case, files in internal folders); `private`: file or type only.
   */
  visibility: Visibility;
  /** Declared inside a type or an impl block (a method, a nested type), not at the top level. */
  member: boolean;
  /** The declaring keyword of a type (`class`, `struct`, `protocol`, `trait`, `actor`, `interface`…). */
  keyword?: string;
  /** The modifier words before the name (`static`, `synchronized`, `suspend`, `async`, `nonisolated`…), visibility excluded. */
  modifiers?: string[];
  /** For a member: the type, impl block or extension it is declared in (by indentation), when one is found. */
  owner?: string;
  /**
   * For a function: its parameter list and result as written on the declaration's line, with the
   * name left out and spaces collapsed (`(cmd *Command) error`), to find signatures that repeat.
   */
  signature?: string;
}
