import { assignsOnlyEscapedMarkup, insideLoopBody, namedAsIgnored } from './context';
import { type MatchSite, pack } from './pack';

/** The `!` of `x!.y` becomes `?` (`x?.y`), of `x![i]` / `f!()` `?.`; elsewhere `?` would change what the code means. */
function optionalChainFix(m: MatchSite): string | undefined {
  const next = m.text[m.end];
  if (next === '.') return '?';
  if (next === '[' || next === '(') return '?.';
  return undefined;
}

export const typescriptRules = pack(
  'typescript',
  ['typescript', 'javascript'],
  [{
    id: 'ts/no-eval',
    message: 'eval runs a string as code.',
    severity: 'error',
    // Not a method declared with the name (`eval(ev, index) {`): a call's arguments are not followed by a body.
    // Also looked up by a computed key (`globalRoot['eval'](…)`, coffeescript): the masked string is four blanks.
    // (No backreference: the rule stays in the combined scan of the built-in rules.)
    regex: String.raw`(?<![\w$.])eval\s*\((?![^()]*\)\s*\{)|\[\s*(?:" {4}"|' {4}'|\x60 {4}\x60)\s*\]\s*\(`,
    refine: (m) => m.code[m.start] !== '[' || /^\[\s*(["'`])eval\1/.test(m.text.slice(m.start, m.end)),
    needles: ['eval'],
    why:
      "eval executes whatever string reaches it with the caller's scope: any input that flows into it is code injection, and it defeats bundlers, minifiers and CSP.",
    suggestion:
      'Parse data with JSON.parse, look values up in a map, or call the function directly instead of building code as a string.',
    tags: ['security', 'injection'],
    equivalents: ['eslint:no-eval', 'biome:noGlobalEval'],
    examples: [
      { bad: 'const value = eval(userInput);', good: 'const value = JSON.parse(userInput);' },
      {
        bad: "return globalRoot['eval'](compile(code, options));",
        good: 'return handlers[\'load\'](code);\nconst x = table["eval"];',
      },
      // A method of one's own named eval is not the global (`input.eval(event)` on a class of the project).
      {
        bad: 'return eval(`(${text})`);',
        good:
          'class Input {\n  eval(ev, index) {\n    return this.clickType(ev, index);\n  }\n}\nconst kind = this.input.eval(ev, 1);',
      },
    ],
  }, {
    id: 'ts/no-new-function',
    message: 'new Function compiles a string into code.',
    severity: 'error',
    // Called without `new` the constructor does the same (`Function(body)()`); not isFunction( or obj.Function(.
    regex: String.raw`(?:\bnew\s+|(?<![\w$.]))Function\s*\(`,
    needles: ['Function'],
    why:
      'The Function constructor is eval under another name: the string becomes code in the global scope, an injection risk and blocked by strict CSP.',
    suggestion: 'Write the function in the source, or choose among fixed functions with a lookup table.',
    tags: ['security', 'injection'],
    equivalents: ['eslint:no-new-func', 'eslint:@typescript-eslint/no-implied-eval'],
    examples: [
      {
        bad: 'const add = new Function("a", "b", "return a + b");',
        good: 'const add = (a: number, b: number) => a + b;',
      },
      { bad: 'const run = Function(source);', good: 'if (isFunction(value)) value();\nconst root = globalThis;' },
    ],
  }, {
    id: 'ts/no-implied-eval',
    message: 'A string passed to setTimeout/setInterval is evaluated as code.',
    severity: 'error',
    regex: String.raw`\bset(?:Timeout|Interval)\s*\(\s*["'\x60]`,
    linear: true,
    needles: ['setTimeout', 'setInterval'],
    why: 'setTimeout("…") and setInterval("…") eval their string argument, with the same injection risk as eval.',
    suggestion: 'Pass a function: setTimeout(() => refresh(), 100).',
    tags: ['security', 'injection'],
    equivalents: ['eslint:no-implied-eval', 'eslint:@typescript-eslint/no-implied-eval'],
    examples: [{ bad: 'setTimeout("refresh()", 100);', good: 'setTimeout(() => refresh(), 100);' }],
  }, {
    id: 'ts/no-non-null-assertion',
    message: 'Non-null assertion (!) hides a possible null or undefined.',
    severity: 'warning',
    languages: ['typescript'],
    // Every postfix `!` in any expression position (`throw error!`, `return x!;`, `find(id)!`), from the
    // syntax tree: definite assignments (`let x!: T`) and `!==` are not assertions.
    query: '(non_null_expression "!" @match)',
    prefilter: String.raw`[\w$)\]]!(?!=)`,
    fixer: optionalChainFix,
    why:
      'x! tells the compiler a value cannot be null without checking it; when it is, the code fails at run time with "Cannot read properties of undefined", far from the cause.',
    suggestion: 'Check the value (if (!x) return …), use optional chaining x?.y, or give the type a real guarantee.',
    tags: ['correctness', 'null-safety'],
    equivalents: ['eslint:@typescript-eslint/no-non-null-assertion', 'biome:noNonNullAssertion'],
    // Off by default like typescript-eslint, which has it only in its strict config; on when the
    // project's ESLint config enables it, or with a severity override.
    disabledByDefault: true,
    examples: [
      { bad: 'const n = map.get(key)!.length;', good: 'const n = map.get(key)?.length ?? 0;' },
      { bad: 'if (failed) throw lastError!;', good: 'if (failed && lastError) throw lastError;' },
      { bad: 'return cache.find(id)!;', good: 'let total!: number;\nif (a !== b) return cache.find(id) ?? fallback;' },
    ],
  }, {
    id: 'ts/no-explicit-any',
    message: 'Explicit any turns off type checking.',
    severity: 'info',
    languages: ['typescript'],
    // `as any` has its own rule (with a fix); this one covers annotations, generics and signatures.
    // Lexical, not from the syntax tree: outside type positions `any` can only be an identifier, and
    // the rule must stay cheap enough to re-check a 5,000-line file on every keystroke. Not a
    // property (`.any`), a key or parameter named any (`any:`), a call (`any(`), or a declaration.
    regex: String
      .raw`(?<![\w$.])(?<!\bas\s+)(?<!\b(?:let|const|var|function|class|interface|type|enum|import)\s+)any(?![\w$]|\s*\??:|\s*\()`,
    needles: ['any'],
    why:
      'A value typed any accepts and returns anything: type errors around it pass the compiler and reach users, and the any spreads to everything it touches.',
    suggestion: 'Use unknown and narrow it, a generic type parameter, or the real type.',
    tags: ['types'],
    equivalents: ['eslint:@typescript-eslint/no-explicit-any', 'biome:noExplicitAny'],
    // Whether to write any is a project's choice: on where its linter reports it (a typescript-eslint
    // recommended/strict preset, next/typescript, Biome, or the rule by name). A project whose linter leaves
    // it out writes `any` by design, and its findings are then noise.
    disabledByDefault: true,
    examples: [
      {
        bad: 'function parse(input: any): any {\n  return input;\n}',
        good: 'function parse(input: unknown): Config {\n  return toConfig(input);\n}',
      },
      {
        bad: 'const handlers: Record<string, any> = {};',
        good: 'const handlers: Record<string, Handler> = {};\nconst company = "many";',
      },
      {
        bad: 'let x: any = load();\ntype Key = keyof any;\nconst f = (...args: any[]) => args;',
        good:
          'const ok = list.any((x) => x > 0) || opts.any;\nconst o = { any: 1 };\nfunction pick(any?: string) {}\nconst v = x as any;',
      },
    ],
  }, {
    id: 'ts/no-empty-catch',
    message: 'Empty catch block swallows the error.',
    severity: 'warning',
    regex: String.raw`\bcatch\s*(?:\(\s*[\w$]*\s*(?::\s*\w+\s*)?\))?\s*\{\s*\}`,
    needles: ['catch'],
    why:
      'An empty catch hides failures: the program goes on in a state nobody expected and the log says nothing about why.',
    suggestion: 'Handle the error, log it with context, rethrow it, or leave a comment saying why ignoring it is safe.',
    tags: ['error-handling'],
    equivalents: ['eslint:no-empty', 'biome:noEmptyBlockStatements'],
    refine: (m) => !namedAsIgnored(m),
    examples: [
      { bad: 'try { save(); } catch (e) {}', good: 'try { save(); } catch (e) { log.warn("save failed", e); }' },
      { bad: 'try { save(); } catch {}', good: 'try { save(); } catch { /* the cache is optional */ }' },
    ],
  }, {
    id: 'ts/no-async-foreach',
    message: 'forEach does not wait for an async callback.',
    severity: 'warning',
    regex: String.raw`\.forEach\s*\(\s*async\b`,
    linear: true,
    needles: ['forEach'],
    why:
      'forEach ignores the promises its callback returns: the loop "finishes" before the work does, errors become unhandled rejections, and the order is not what it looks like.',
    suggestion:
      'Use for…of with await for sequential work, or await Promise.all(items.map(async …)) for parallel work.',
    tags: ['correctness', 'async'],
    equivalents: ['eslint:@typescript-eslint/no-misused-promises'],
    examples: [{
      bad: 'items.forEach(async (item) => { await save(item); });',
      good: 'for (const item of items) { await save(item); }',
    }],
  }, {
    id: 'ts/await-in-loop',
    message: 'await inside a loop runs the iterations one after another.',
    severity: 'info',
    // Any await in a loop's body, at any depth (a declaration, a condition), but not in a callback.
    query: '(await_expression) @match',
    refine: (m) => insideLoopBody(m.code, m.start),
    why: 'Each await waits for the previous iteration: independent requests that could overlap take n times as long.',
    suggestion:
      'When iterations are independent, start them together: await Promise.all(items.map((item) => work(item))). Keep the loop when order matters.',
    tags: ['performance', 'async'],
    equivalents: ['eslint:no-await-in-loop'],
    prefilter: String.raw`\bawait\b`,
    // Parsing costs ~40 ms per 5,000 lines on first open, against ~10 ms for all regex rules: opt in
    // with a severity override.
    disabledByDefault: true,
    examples: [
      {
        bad: 'for (const id of ids) {\n  await fetchUser(id);\n}',
        good: 'await Promise.all(ids.map((id) => fetchUser(id)));',
      },
      {
        bad:
          'for (const item of items) {\n  if (item.ok) {\n    const body = await item.text();\n    use(body);\n  }\n}',
        good: 'for (const item of items) {\n  queue.push(async () => {\n    await item.text();\n  });\n}',
      },
    ],
  }, {
    id: 'ts/no-debugger',
    message: 'debugger statement left in the code.',
    severity: 'error',
    // Not a method or key named debugger (`debugger() {`, `debugger: 1`).
    regex: String.raw`(?<![\w$.])debugger(?![\w$]|[ \t]*[(:])\s*;?`,
    fix: '',
    needles: ['debugger'],
    why: 'A debugger statement stops every user with the developer tools open and is never meant to ship.',
    suggestion: 'Remove it; use a breakpoint in the editor instead.',
    // A debugger statement stops any run under an inspector, a build script's too (vite's rollup config):
    // it reaches build scripts and examples one severity lower, so no error is reported outside production.
    reach: 'security',
    tags: ['hygiene'],
    equivalents: ['eslint:no-debugger', 'biome:noDebugger'],
    examples: [{
      bad: 'function f() {\n  debugger;\n  return 1;\n}',
      good: 'function f() {\n  return 1;\n}\nconst imports = { debugger() { return 0; } };',
    }],
  }, {
    id: 'ts/no-inner-html',
    message: 'Assigning innerHTML/outerHTML injects markup.',
    severity: 'warning',
    // Not a constant string (one literal, no interpolation): it injects nothing.
    regex: String
      .raw`\.(?:inner|outer)HTML\s*(?:\+)?=(?!=)(?!\s*(?:"[^"\\\r\n]*"|'[^'\\\r\n]*'|\x60[^\x60$\\]*\x60)\s*(?:[;,)\r\n]|$))`,
    needles: ['HTML'],
    // Markup whose data all passes an escaping or sanitizing call carries no data as markup.
    refine: (m) => !assignsOnlyEscapedMarkup(m),
    why:
      'Markup built from data runs any script it contains (cross-site scripting) and drops the event listeners of the replaced nodes.',
    suggestion:
      'Set textContent for text, build nodes with createElement, or sanitize with a vetted sanitizer (DOMPurify) first.',
    tags: ['security', 'xss'],
    equivalents: [
      'eslint:no-unsanitized/property',
      'eslint:@microsoft/sdl/no-inner-html',
      'biome:noDangerouslySetInnerHtml',
    ],
    examples: [
      { bad: 'el.innerHTML = "<b>" + name + "</b>";', good: 'el.textContent = name;' },
      // A constant string injects nothing: emptying a node, a fixed word, fixed icon markup.
      {
        bad: 'caption.innerHTML += `<p>${item.Description}</p>`;\nel.innerHTML = html;',
        good:
          'caption.innerHTML = "";\nel.innerHTML = \'error\';\ncaption.innerHTML += \'<i class="mdi mdi-image"></i>\';\nel.outerHTML = `<hr>`;',
      },
      // Data that passes an escaping or sanitizing call first, or the element's own markup wrapped; a value beside it, a call on its result, or another element's markup still counts.
      {
        bad:
          'el.innerHTML = "<b>" + other.innerHTML + "</b>";\nel.innerHTML = "<b>" + Util.encodeHTML(title) + "</b>" + note;\nel.innerHTML = escapeHtml(a).replace(/x/g, b);\nel.innerHTML = `<p>${escapeHtml(a)}${b}</p>`;',
        good:
          'caption.innerHTML = "<button>" + caption.innerHTML + "</button>";\ncaption.innerHTML = "<h4>" + Util.encodeHTML(item.Title) + "</h4>";\nel.innerHTML = `<p>${escapeHtml(text)}</p>`;\nel.innerHTML = DOMPurify.sanitize(html);\nel.innerHTML = Sanitizer.escapeHTML`<b>${name}</b>`;\nbody.innerHTML =\n  "<p>" +\n  encodeHTML(a) +\n  "</p>";',
      },
    ],
  }, {
    id: 'ts/no-sync-io',
    message: 'Synchronous file or process call blocks the event loop.',
    severity: 'info',
    regex: String
      .raw`\b(?:readFileSync|writeFileSync|appendFileSync|readdirSync|mkdirSync|rmSync|unlinkSync|renameSync|copyFileSync|statSync|lstatSync|existsSync|accessSync|realpathSync|execSync|execFileSync|spawnSync)\s*\(`,
    needles: ['Sync'],
    why:
      'Synchronous I/O stops every other task of the process until it returns: in a server it stalls all requests, in a VS Code extension it freezes the extension host.',
    suggestion:
      'Use the promise API (fs.promises.readFile, execFile with util.promisify) and await it; keep sync calls to start-up scripts and CLIs.',
    tags: ['performance', 'main-thread'],
    equivalents: ['eslint:n/no-sync', 'eslint:node/no-sync'],
    // Off by default like n/no-sync: start-up code and CLIs read files synchronously on purpose.
    disabledByDefault: true,
    examples: [{
      bad: 'const text = fs.readFileSync(file, "utf8");',
      good: 'const text = await fs.promises.readFile(file, "utf8");',
    }],
  }, {
    id: 'ts/no-explicit-any-cast',
    message: 'Cast to any turns off type checking.',
    severity: 'info',
    languages: ['typescript'],
    regex: String.raw`\bas\s+any\b`,
    fix: 'as unknown',
    linear: true,
    needles: ['any'],
    why: '`as any` silences every check on the value from there on, so type errors pass the compiler and reach users.',
    suggestion: 'Cast to unknown and narrow it, or give the value its real type.',
    tags: ['types'],
    equivalents: ['eslint:@typescript-eslint/no-explicit-any', 'biome:noExplicitAny'],
    disabledByDefault: true, // as ts/no-explicit-any
    examples: [{ bad: 'const cfg = JSON.parse(text) as any;', good: 'const cfg = JSON.parse(text) as unknown;' }],
  }, {
    id: 'ts/no-console-log',
    message: 'console.log left in the code.',
    severity: 'hint',
    regex: String.raw`\bconsole\.log\s*\(`,
    linear: true,
    needles: ['console'],
    why: "Debug output left behind clutters logs, can leak data, and in libraries writes to other people's consoles.",
    suggestion: "Use the project's logger, or remove the line.",
    tags: ['hygiene'],
    equivalents: ['eslint:no-console', 'biome:noConsoleLog', 'biome:noConsole'],
    // Off by default like ESLint's no-console (not in eslint:recommended): CLIs and servers log on
    // purpose. On when the ESLint config enables no-console, or with a severity override.
    disabledByDefault: true,
    examples: [{ bad: 'console.log("user", user);', good: 'log.debug("user", user.id);' }],
  }],
);
