import { insideParensOf } from './context';
import { type MatchSite, pack } from './pack';
import { mutableDefaultFix } from './python-fixes';

/**
 * The handler re-raises (a bare `raise` among its own statements): it only looks at the exception on
 * the way through, so Ctrl-C and SystemExit still propagate. Ruff's E722 leaves such handlers alone.
 */
function handlerReraises(m: MatchSite): boolean {
  const lineEnd = m.code.indexOf('\n', m.end);
  const rest = m.code.slice(m.end, lineEnd < 0 ? undefined : lineEnd);
  if (/^\s*raise\s*(?:#.*)?$/.test(rest)) return true; // except: raise
  const indent = /^[ \t]*/.exec(m.text.slice(m.text.lastIndexOf('\n', m.start) + 1))![0].length;
  let bodyIndent = -1;
  for (const line of m.code.slice(lineEnd + 1).split('\n')) {
    if (!line.trim()) continue;
    const at = /^[ \t]*/.exec(line)![0].length;
    if (at <= indent) break;
    if (bodyIndent < 0) bodyIndent = at;
    if (at === bodyIndent && /^\s*raise\s*(?:#.*)?$/.test(line)) return true;
  }
  return false;
}

/**
 * Whether the innermost def around `offset` is an `async def`, found by indentation: each line above
 * with less indentation opens a block that holds the match. Lines that close brackets (`):` of a
 * multi-line signature) continue a statement and open nothing.
 */
function insideAsyncDef(code: string, offset: number): boolean {
  const lineStart = code.lastIndexOf('\n', offset - 1) + 1;
  let indent = /^[ \t]*/.exec(code.slice(lineStart))![0].length;
  let end = lineStart - 1;
  while (end > 0 && indent > 0) {
    const start = code.lastIndexOf('\n', end - 1) + 1;
    const line = code.slice(start, end);
    end = start - 1;
    const text = line.trimStart();
    if (!text || /^[)\]}]/.test(text)) continue;
    const own = line.length - text.length;
    if (own >= indent) continue;
    indent = own;
    if (/^async\s+def\b/.test(text)) return true;
    if (/^(?:def|class)\b/.test(text)) return false;
  }
  return false;
}

export const pythonRules = pack(
  'python',
  ['python'],
  [{
    id: 'py/bare-except',
    message: 'Bare except also catches KeyboardInterrupt and SystemExit.',
    severity: 'warning',
    regex: String.raw`^([ \t]*)except[ \t]*:`,
    flags: 'm',
    fix: '$1except Exception:',
    linear: true,
    needles: ['except'],
    why:
      'except: catches everything, including Ctrl-C and sys.exit(), so the program cannot be stopped and real bugs are hidden.',
    suggestion: 'Catch the exceptions you expect, or at least `except Exception:`.',
    tags: ['error-handling'],
    equivalents: ['noqa:E722', 'noqa:B001', 'pylint:bare-except', 'pylint:W0702'],
    refine: (m) => !handlerReraises(m),
    examples: [
      { bad: 'try:\n    run()\nexcept:\n    log()', good: 'try:\n    run()\nexcept ValueError:\n    log()' },
      {
        bad: 'try:\n    run()\nexcept:\n    if verbose:\n        raise\n    log()',
        good: 'try:\n    run()\nexcept:\n    rollback()\n    raise',
      },
    ],
  }, {
    id: 'py/except-pass',
    message: 'Exception swallowed with pass.',
    severity: 'warning',
    // A comment after the colon (`except OSError:  # best effort`) does not make the block less empty.
    regex: String.raw`^[ \t]*except\b[^:\n]*:[ \t]*(?:#[^\n]*)?\n[ \t]*pass\b`,
    flags: 'm',
    needles: ['pass'],
    why: 'except …: pass drops the error without a trace: the program goes on in a state nobody expected.',
    suggestion: 'Log the exception, handle it, or use contextlib.suppress(SpecificError) to say the error is expected.',
    tags: ['error-handling'],
    equivalents: ['noqa:S110', 'noqa:SIM105', 'pylint:W0107'],
    // An optional import (`except ImportError: pass`) is Python's idiom, not a swallowed failure.
    refine: (m) => !/except\s*\(?\s*(?:ImportError|ModuleNotFoundError)\b/.test(m.text.slice(m.start, m.end)),
    // Off by default like Ruff's S110 (not in its default rule set): in maintained code most are deliberate fallbacks.
    disabledByDefault: true,
    examples: [
      {
        bad: 'try:\n    os.remove(path)\nexcept OSError:\n    pass',
        good: 'with contextlib.suppress(FileNotFoundError):\n    os.remove(path)',
      },
      {
        bad: 'try:\n    os.remove(path)\nexcept OSError:  # best effort\n    pass',
        good: 'try:\n    os.remove(path)\nexcept OSError:  # best effort\n    log.debug("kept %s", path)',
      },
    ],
  }, {
    id: 'py/no-eval',
    message: 'eval/exec runs a string as code.',
    severity: 'error',
    regex: String.raw`(?<![\w.])(?:eval|exec)\s*\(`,
    needles: ['eval', 'exec'],
    why: 'eval and exec run whatever string reaches them: any input that flows in is code injection.',
    suggestion: 'Use ast.literal_eval for literals, json.loads for data, or a dispatch dict for choosing functions.',
    tags: ['security', 'injection'],
    equivalents: [
      'noqa:S307',
      'noqa:S102',
      'noqa:PGH001',
      'nosec:B307',
      'nosec:B102',
      'pylint:eval-used',
      'pylint:exec-used',
      'pylint:W0123',
      'pylint:W0122',
    ],
    examples: [{ bad: 'value = eval(text)', good: 'value = ast.literal_eval(text)' }],
  }, {
    id: 'py/mutable-default',
    message: 'Mutable default argument is shared between calls.',
    severity: 'warning',
    // Reported at the parameter (as Ruff's B006), which may be lines below the `def`.
    regex: String.raw`\b[A-Za-z_]\w*\s*(?::[^=\n()]*?)?=\s*(?:\[\s*\]|\{\s*\}|list\(\)|dict\(\)|set\(\))(?=\s*[,)])`,
    refine: (m) => insideParensOf(m.code, m.start, /\bdef\s+\w+\s*$/),
    fixer: mutableDefaultFix,
    needles: ['def'],
    why: 'The default is created once, when the function is defined: items appended in one call show up in the next.',
    suggestion: 'Default to None and create the list inside: def f(items=None): items = [] if items is None else items',
    tags: ['correctness'],
    equivalents: ['noqa:B006', 'pylint:dangerous-default-value', 'pylint:W0102'],
    examples: [{
      bad: 'def add(item, items=[]):\n    items.append(item)',
      good: 'def add(item, items=None):\n    items = [] if items is None else items',
    }],
  }, {
    id: 'py/shell-true',
    message: 'subprocess with shell=True runs the command through a shell.',
    severity: 'warning',
    // Reported at `shell=True`, in the arguments of a subprocess call (which may hold calls of their own).
    regex: String.raw`\bshell\s*=\s*True\b`,
    refine: (m) => insideParensOf(m.code, m.start, /\bsubprocess\.\w+\s*$/),
    needles: ['shell'],
    why: 'With shell=True any interpolated value can inject shell commands (quotes, ;, $()).',
    suggestion: 'Pass the command as a list without a shell: subprocess.run(["git", "log", ref], check=True).',
    tags: ['security', 'injection'],
    equivalents: ['noqa:S602', 'noqa:S604', 'nosec:B602', 'nosec:B604'],
    examples: [{
      bad: 'subprocess.run(f"git log {ref}", shell=True)',
      good: 'subprocess.run(["git", "log", ref], check=True)',
    }],
  }, {
    id: 'py/yaml-load',
    message: 'yaml.load can build arbitrary objects.',
    severity: 'warning',
    // yaml.unsafe_load and yaml.full_load are yaml.load with the unsafe and the full loader.
    regex: String
      .raw`\byaml\.(?:load|unsafe_load|full_load)\s*\((?![^)]*\bLoader\s*=\s*(?:yaml\.)?(?:Safe|Base)Loader\b)`,
    fix: 'yaml.safe_load(',
    needles: ['yaml.load', 'yaml.unsafe_load', 'yaml.full_load'],
    why: 'With the default or full loader a YAML document can construct Python objects and run code.',
    suggestion: 'Use yaml.safe_load(text).',
    tags: ['security', 'deserialization'],
    equivalents: ['noqa:S506', 'nosec:B506'],
    examples: [{ bad: 'config = yaml.load(text)', good: 'config = yaml.safe_load(text)' }],
  }, {
    id: 'py/blocking-sleep-in-async',
    message: 'time.sleep inside async def blocks the event loop.',
    severity: 'warning',
    // At any depth of the async def (in a loop, an if, a try), not only as its direct statement; a sync
    // def nested in it is sync code.
    regex: String.raw`(?<![\w.])time\.sleep\s*\(`,
    needles: ['sleep'],
    refine: (m) => insideAsyncDef(m.code, m.start),
    why: 'time.sleep stops the whole event loop: every other task of the program waits too.',
    suggestion: 'Use await asyncio.sleep(seconds).',
    tags: ['async', 'main-thread'],
    equivalents: ['noqa:ASYNC251', 'noqa:ASYNC101'],
    examples: [
      { bad: 'async def poll():\n    time.sleep(1)\n', good: 'async def poll():\n    await asyncio.sleep(1)\n' },
      {
        bad: 'async def poll(\n    client,\n):\n    while True:\n        if client.busy:\n            time.sleep(1)\n',
        good: 'async def main():\n    def work():\n        time.sleep(1)\n    await asyncio.to_thread(work)\n',
      },
    ],
  }],
);
