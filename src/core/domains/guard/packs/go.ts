import { enclosingFunction } from './context';
import { type MatchSite, pack } from './pack';

/**
 * Standard-library calls whose second result is not an error (`v, _ := m.Load(k)`, `r, _ :=
 * utf8.DecodeRuneInString(s)`): discarding it loses nothing.
 */
const SECOND_RESULT_NOT_ERROR =
  /(?:^|\.)(?:Load|LoadOrStore|LoadAndDelete|LookupEnv|DecodeRune|DecodeRuneInString|DecodeLastRune|DecodeLastRuneInString|Cut|CutPrefix|CutSuffix|SetString|Float64|Int64|Uint64|Caller|ReadBuildInfo|Deadline|Value)\($/;

/**
 * A panic the function's doc announces ("panics if …"), in a Must… function, or in init(): Go's
 * convention for programmer errors, not a failure callers should handle.
 */
function announcedPanic(m: MatchSite): boolean {
  const fn = enclosingFunction(m.text, m.code, m.start, /\bfunc\b/);
  if (!fn) return false;
  return /\bpanic/i.test(fn.doc) || /\bfunc\s*(?:\([^)]*\)\s*)?(?:Must[A-Z_]\w*|init)\s*\(/.test(fn.header);
}

export const goRules = pack(
  'go',
  ['go'],
  [{
    id: 'go/discarded-error',
    message: 'The error result of the call is discarded.',
    severity: 'warning',
    // `_, _ = fmt.Fprintf(…)` discards every result on purpose: only a kept value beside a dropped one counts.
    regex: String.raw`\b(?!_\b)\w+\s*(?:,\s*_\s*)+:?=\s*[\w.]*\w\(`,
    refine: (m) => !SECOND_RESULT_NOT_ERROR.test(m.text.slice(m.start, m.end).replace(/^.*=\s*/, '')),
    needles: ['_'],
    why:
      'Assigning the error to _ hides failures: the other results are zero values and the program goes on with them.',
    suggestion: 'Check the error: if err != nil { return fmt.Errorf("…: %w", err) }.',
    tags: ['error-handling'],
    equivalents: ['nolint:errcheck', 'nolint:gosec'],
    // Off by default like errcheck's check-blank: `_` is how Go code says "dropped on purpose"
    // (parse-or-zero helpers such as `n, _ := strconv.Atoi(s)` are written that way).
    disabledByDefault: true,
    enabledBy: ['nolint:errcheck.check-blank'],
    examples: [
      { bad: 'n, _ := strconv.Atoi(s)', good: 'n, err := strconv.Atoi(s)\nif err != nil {\n\treturn err\n}' },
      { bad: 'val, _, _ := parseToken(raw)', good: '_, _, _ = fmt.Sscan(s, &a, &b)' },
      {
        bad: 'left, _ = strconv.ParseInt(av.String(), 10, 64)',
        good: '_, _ = fmt.Fprintf(&sb, "\\t%v\\n", s)\nv, _ := cache.Load(key)',
      },
    ],
  }, {
    id: 'go/empty-error-check',
    message: 'Error checked but not handled.',
    severity: 'warning',
    // Also the check after an init statement (`if err := f(\n…\n); err != nil {}`), the call spanning lines.
    regex: String.raw`(?:\bif|;)\s*err\s*!=\s*nil\s*\{\s*\}`,
    linear: true,
    needles: ['err'],
    why: 'An empty if err != nil block swallows the error while looking as if it were handled.',
    suggestion: 'Return or wrap the error, or log it with context.',
    tags: ['error-handling'],
    equivalents: ['nolint:staticcheck', 'nolint:revive'],
    examples: [
      { bad: 'if err != nil {}', good: 'if err != nil {\n\treturn fmt.Errorf("load: %w", err)\n}' },
      {
        bad: 'if err := save(\n\tpath,\n); err != nil {\n}',
        good: 'if err := save(path); err != nil {\n\tlog.Println(err)\n}',
      },
    ],
  }, {
    id: 'go/defer-in-loop',
    message: 'defer inside a loop runs only when the function returns.',
    severity: 'warning',
    // Directly in the loop's body, or in a case of a switch or select there (helm's tar extraction).
    query: `[
      (for_statement body: (block (statement_list (defer_statement) @match)))
      (for_statement body: (block (statement_list (expression_switch_statement (expression_case (statement_list (defer_statement) @match))))))
      (for_statement body: (block (statement_list (type_switch_statement (type_case (statement_list (defer_statement) @match))))))
      (for_statement body: (block (statement_list (select_statement (communication_case (statement_list (defer_statement) @match))))))
    ]`,
    why:
      'Deferred calls pile up until the function returns: files and locks opened in each iteration stay open for the whole loop (too many open files, held locks).',
    suggestion:
      'Move the loop body into a function (so defer runs per iteration), or close explicitly at the end of the iteration.',
    tags: ['resources'],
    equivalents: ['nolint:gocritic', 'nolint:revive'],
    prefilter: String.raw`\bdefer\b`,
    examples: [
      {
        bad:
          'func f(paths []string) {\n\tfor _, p := range paths {\n\t\tf, _ := os.Open(p)\n\t\tdefer f.Close()\n\t}\n}',
        good: 'func f(paths []string) {\n\tfor _, p := range paths {\n\t\tprocess(p)\n\t}\n}',
      },
      {
        bad:
          'func f(r *tar.Reader) {\n\tfor {\n\t\th, _ := r.Next()\n\t\tswitch h.Typeflag {\n\t\tcase tar.TypeReg:\n\t\t\tout, _ := os.Create(h.Name)\n\t\t\tdefer out.Close()\n\t\t}\n\t}\n}',
        good:
          'func f(tx *sql.Tx, rows []row) error {\n\tfor _, r := range rows {\n\t\tif err := insert(tx, r); err != nil {\n\t\t\tdefer tx.Rollback()\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}',
      },
    ],
  }, {
    id: 'go/http-default-client',
    message: 'The default HTTP client has no timeout.',
    severity: 'info',
    // The package helpers and http.DefaultClient itself (`http.DefaultClient.Do(req)`).
    regex: String.raw`\bhttp\.(?:DefaultClient\.(?:Do|Get|Post|Head|PostForm)|Get|Post|Head|PostForm)\s*\(`,
    linear: true,
    needles: ['http.'],
    why:
      'http.Get and friends use http.DefaultClient, which waits forever for a server that stops answering; goroutines and connections pile up.',
    suggestion:
      'Use a client with a timeout: client := &http.Client{Timeout: 10 * time.Second}; client.Get(url), or a request with a context deadline.',
    tags: ['reliability', 'network'],
    equivalents: ['nolint:noctx', 'nolint:gosec'],
    // Off by default like golangci's noctx.
    disabledByDefault: true,
    examples: [{
      bad: 'resp, err := http.Get(url)\nres, err := http.DefaultClient.Do(req)',
      good: 'resp, err := client.Get(url)',
    }],
  }, {
    id: 'go/panic',
    message: 'panic in library code.',
    severity: 'info',
    regex: String.raw`(?<![\w.])panic\s*\(`,
    refine: (m) => !announcedPanic(m),
    needles: ['panic'],
    why: 'A panic takes down the whole program unless someone recovers it; callers cannot handle it as an error.',
    suggestion: 'Return an error; keep panic for programming errors that can never happen at run time.',
    tags: ['error-handling'],
    // No default Go linter reports panic: most panics in libraries are documented programmer errors.
    // On with a severity override.
    disabledByDefault: true,
    examples: [
      {
        bad: 'func load(cfg *Config) {\n\tif cfg == nil {\n\t\tpanic("no config")\n\t}\n}',
        good:
          'func load(cfg *Config) error {\n\tif cfg == nil {\n\t\treturn errors.New("no config")\n\t}\n\treturn nil\n}',
      },
      {
        bad: 'func Parse(s string) T {\n\tpanic(s)\n}',
        good:
          '// MustParse is like Parse but panics if s is invalid.\nfunc MustParse(s string) T {\n\tpanic(s)\n}\n\n// Eq compares a and b. Unsupported types will panic.\nfunc Eq(a, b any) bool {\n\tpanic("unsupported")\n}',
      },
    ],
  }],
);
