import { commentAbove, enclosingFunction, insideAsync, statementEnd } from './context';
import { type MatchSite, pack } from './pack';

/** A function whose doc has a `# Panics` section documents its panics: its unwraps are part of that contract. */
function documentedPanic(m: MatchSite): boolean {
  const fn = enclosingFunction(m.text, m.code, m.start, /\bfn\b/);
  return !!fn && /^\s*(?:\/\/\/|\/\/!|\*)\s*#\s*Panics\b/m.test(fn.doc);
}

/** A `// SAFETY:` comment right above the statement, or on its line, is the justification the rule asks for. */
function safetyComment(m: MatchSite): boolean {
  const lineStart = m.text.lastIndexOf('\n', m.start) + 1;
  const lineEnd = m.text.indexOf('\n', m.end);
  const line = m.text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  return /\bSAFETY\b/i.test(commentAbove(m.text, m.start)) || /\/\/.*\bSAFETY\b/i.test(line);
}

/**
 * Unwraps a senior Rust reviewer lets pass: a poisoned lock (`.lock().unwrap()`, a panic in another
 * thread already happened) and a constructor fed a literal (`Regex::new(r"…").unwrap()`, which fails
 * only on a typo the first test run shows).
 */
function idiomaticUnwrap(m: MatchSite): boolean {
  const before = m.code.slice(Math.max(0, m.start - 200), m.start);
  if (/\.(?:lock|read|write)\(\)\s*$/.test(before)) return true;
  return /::(?:new|parse|from_str)\(\s*(?:r#*)?"[^"\n]*"#*\s*\)\s*$/.test(before);
}

/** A run-time symbol lookup, and a transmute's argument that is one or names a binding (group 1). */
const LOOKUP = String.raw`(?:[\w:]+::)?(?:GetProcAddress|dlsym)\s*\(`;
const LOOKED_UP_ARGUMENT = new RegExp(String.raw`^\s*\(\s*(?:([A-Za-z_]\w*)\s*\)|(?=${LOOKUP}))`);

/**
 * `transmute` of a symbol looked up at run time (`GetProcAddress`, `dlsym`) to its function type: the
 * only way to call it, the FFI idiom for functions an OS library may lack (a console API
 * looked up by name). The argument is the lookup itself or a binding made from it earlier in the function.
 */
function loadedSymbol(m: MatchSite): boolean {
  let i = m.code.indexOf('transmute', m.start) + 'transmute'.length;
  // Past a turbofish `::<A, B>`, whose types may hold parentheses (`extern "C" fn(i32)`).
  const turbofish = /^\s*::\s*</.exec(m.code.slice(i, i + 16));
  if (turbofish) {
    i += turbofish[0].length;
    for (let depth = 1; i < m.code.length && depth > 0; i++) {
      if (m.code[i] === '<') depth++;
      else if (m.code[i] === '>' && m.code[i - 1] !== '-') depth--;
    }
  }
  const arg = LOOKED_UP_ARGUMENT.exec(m.code.slice(i, i + 200));
  if (!arg) return false;
  if (!arg[1]) return true;
  const before = m.code.slice(Math.max(0, m.start - 4000), m.start);
  return new RegExp(String.raw`\blet\s+(?:mut\s+)?${arg[1]}\s*(?::[^=;]+)?=\s*(?:unsafe\s*\{\s*)?${LOOKUP}`).test(
    before,
  );
}

export const rustRules = pack(
  'rust',
  ['rust'],
  [{
    id: 'rust/unwrap',
    message: '.unwrap() panics on None or Err.',
    severity: 'info',
    regex: String.raw`\.unwrap\(\)`,
    linear: true,
    needles: ['.unwrap()'],
    why:
      'unwrap turns a missing value or an error into a panic that takes down the thread, with a message that says nothing about the cause.',
    suggestion:
      'Propagate with ?, handle with match / if let, or use .expect("why this cannot fail") where it truly cannot.',
    tags: ['crash', 'error-handling'],
    equivalents: ['clippy:unwrap_used'],
    refine: (m) => !idiomaticUnwrap(m) && !documentedPanic(m),
    // Off by default like Clippy's unwrap_used: in real code most unwraps state an invariant. On when the
    // project's Cargo.toml sets unwrap_used to warn or deny.
    disabledByDefault: true,
    examples: [{ bad: 'let n: u32 = s.parse().unwrap();', good: 'let n: u32 = s.parse()?;' }],
  }, {
    id: 'rust/todo',
    message: 'todo!/unimplemented! panics when reached.',
    severity: 'warning',
    regex: String.raw`\b(?:todo|unimplemented)!\s*\(`,
    linear: true,
    needles: ['todo!', 'unimplemented!'],
    why: 'These macros compile fine and panic at run time: a placeholder that ships is a crash waiting for its input.',
    suggestion: 'Implement the branch, or return an error that says what is not supported.',
    tags: ['crash', 'hygiene'],
    equivalents: ['clippy:todo', 'clippy:unimplemented'],
    examples: [{
      bad: 'fn export(&self) -> Vec<u8> {\n    todo!()\n}',
      good: 'fn export(&self) -> Result<Vec<u8>, Error> {\n    Err(Error::Unsupported)\n}',
    }],
  }, {
    id: 'rust/transmute',
    message: 'mem::transmute reinterprets bits without checks.',
    severity: 'warning',
    // `mem::transmute`, or a bare call after `use std::mem::transmute;` (helix) — not a method or a declaration.
    regex: String.raw`(?:\bmem::|(?<![\w.:]))transmute\s*(?:::\s*<|\()`,
    refine: (m) => !/\bfn\s+$/.test(m.code.slice(Math.max(0, m.start - 16), m.start)) && !loadedSymbol(m),
    needles: ['transmute'],
    why:
      'transmute is undefined behaviour whenever sizes, alignment or validity invariants do not hold, and the compiler cannot check them.',
    suggestion: 'Use safe conversions (from_ne_bytes, as casts, bytemuck::cast for plain data).',
    tags: ['unsafe', 'memory'],
    equivalents: ['clippy:transmute_ptr_to_ptr', 'clippy:useless_transmute'],
    examples: [
      { bad: 'let f: f32 = unsafe { std::mem::transmute(bits) };', good: 'let f = f32::from_bits(bits);' },
      {
        bad: "use std::mem::transmute;\nlet s: &'static str = unsafe { transmute(line) };",
        good: 'use std::mem::transmute;\nfn transmute(x: u8) -> u8 { x }\nlet y = value.transmute();',
      },
      {
        bad: 'let f = table.get(0);\nlet g = unsafe { mem::transmute::<Loaded, Create>(f) };',
        good: 'let f = GetProcAddress(module, s!("Create"))?;\nlet g = unsafe { mem::transmute::<Loaded, Create>(f) };',
      },
    ],
  }, {
    id: 'rust/unsafe-block',
    message: 'unsafe block.',
    severity: 'hint',
    regex: String.raw`\bunsafe\s*\{`,
    linear: true,
    needles: ['unsafe'],
    why:
      'Inside unsafe the compiler no longer proves memory safety; each block needs a reviewed argument for why it is sound.',
    suggestion: 'Keep it minimal and add a // SAFETY: comment explaining the invariants.',
    tags: ['unsafe'],
    equivalents: ['clippy:undocumented_unsafe_blocks', 'clippy:multiple_unsafe_ops_per_block'],
    refine: (m) => !safetyComment(m),
    // Off by default like Clippy's undocumented_unsafe_blocks (a restriction lint).
    disabledByDefault: true,
    examples: [{ bad: 'let v = unsafe { *ptr };', good: 'let v = slice[index];' }],
  }, {
    id: 'rust/thread-sleep',
    message: 'std::thread::sleep in async code blocks the executor thread.',
    severity: 'info',
    regex: String.raw`\bthread::sleep\s*\(`,
    linear: true,
    needles: ['sleep'],
    why: 'In async code a blocking sleep stalls the executor thread and every task scheduled on it.',
    suggestion: "In async code use tokio::time::sleep(d).await (or your runtime's equivalent).",
    tags: ['async', 'main-thread'],
    equivalents: ['clippy:disallowed_methods'],
    // Blocking a plain thread is how a worker waits; only inside async code does it stall others.
    refine: (m) => insideAsync(m.code, m.start),
    examples: [{
      bad: 'async fn poll(&self) {\n    std::thread::sleep(Duration::from_secs(1));\n}',
      good:
        'async fn poll(&self) {\n    tokio::time::sleep(Duration::from_secs(1)).await;\n}\nfn worker() {\n    std::thread::sleep(Duration::from_millis(5));\n}',
    }],
  }, {
    id: 'rust/ignored-result',
    message: 'Result discarded with let _ =.',
    severity: 'info',
    regex: String.raw`\blet\s+_\s*=\s*[\w:.]*\w\(`,
    linear: true,
    needles: ['let'],
    why: 'let _ = call(); silences #[must_use]: if the call fails, nothing notices.',
    suggestion: 'Handle or propagate the error (call()?), or log it: if let Err(e) = call() { warn!(…) }.',
    tags: ['error-handling'],
    equivalents: ['clippy:let_underscore_must_use', 'clippy:let_underscore_untyped', 'clippy:let_underscore_future'],
    // `let _ = w.write(b)?;` propagates the error and drops only the value.
    refine: (m) => !/\?\s*;?$/.test(m.code.slice(m.start, statementEnd(m.code, m.start)).trimEnd()),
    // `let _ =` is Rust's explicit discard; Clippy's let_underscore_must_use is off by default too.
    disabledByDefault: true,
    examples: [{ bad: 'let _ = fs::remove_file(&path);', good: 'fs::remove_file(&path)?;' }],
  }],
);
