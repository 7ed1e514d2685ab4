import { checkedJustBefore, inWorkerThreadFunction, namedAsIgnored } from './context';
import { type MatchSite, pack } from './pack';

/**
 * The handler already writes to System.err itself (a message, then the trace): stderr is the
 * channel it chose, typically because there is no log yet (a logging bridge whose own set-up failed).
 */
function reportsToStderr(m: MatchSite): boolean {
  return /\bSystem\.err\.print/.test(m.code.slice(m.code.lastIndexOf('{', m.start) + 1, m.start));
}

export const jvmRules = pack(
  'jvm',
  ['java', 'kotlin'],
  [{
    id: 'java/empty-catch',
    message: 'Empty catch block swallows the exception.',
    severity: 'warning',
    regex: String.raw`\bcatch\s*\([^)]*\)\s*\{\s*\}`,
    needles: ['catch'],
    why: 'The exception disappears without a trace; the program continues in a state nobody planned for.',
    suggestion: 'Handle it, log it with context, or rethrow it wrapped; if ignoring is right, say why in a comment.',
    tags: ['error-handling'],
    equivalents: [
      'suppress:EmptyCatchBlock',
      'suppress:PMD.EmptyCatchBlock',
      'suppress:SwallowedException',
      'suppress:CatchMayIgnoreException',
    ],
    refine: (m) => !namedAsIgnored(m),
    examples: [
      {
        bad: 'try { file.delete(); } catch (IOException e) {}',
        good: 'try { file.delete(); } catch (IOException e) { log.warn("delete failed", e); }',
      },
      {
        bad: 'try { f() } catch (e: Exception) {}',
        good: 'try { f() } catch (e: Exception) { log.warn("f failed", e) }',
        language: 'kotlin',
      },
      {
        bad: 'try { close() } catch (e: IOException) {\n}',
        good: 'try { close() } catch (_: IOException) {\n}\ntry { close(); } catch (IOException ignored) {}',
        language: 'kotlin',
      },
    ],
  }, {
    id: 'java/print-stack-trace',
    message: 'printStackTrace writes to stderr instead of the log.',
    severity: 'info',
    regex: String.raw`\.printStackTrace\s*\(\s*\)`,
    linear: true,
    needles: ['printStackTrace'],
    why:
      'The trace bypasses the logging setup (levels, context, shipping to the log store), and the error is otherwise treated as handled.',
    suggestion: 'Log it: log.error("what failed", e); or rethrow.',
    tags: ['error-handling', 'logging'],
    equivalents: [
      'suppress:CallToPrintStackTrace',
      'suppress:PrintStackTrace',
      'suppress:AvoidPrintStackTrace',
      'suppress:PMD.AvoidPrintStackTrace',
    ],
    refine: (m) => !reportsToStderr(m),
    examples: [
      {
        bad: 'catch (IOException e) { e.printStackTrace(); }',
        good: 'catch (IOException e) { log.error("read failed", e); }',
      },
      {
        bad: 'catch (e: IOException) {\n  e.printStackTrace()\n}',
        good:
          'catch (e: LinkageError) {\n  System.err.println("no logger: running without Android")\n  e.printStackTrace()\n}',
        language: 'kotlin',
      },
    ],
  }, {
    id: 'java/string-reference-equality',
    message: 'Strings compared with == compare references.',
    severity: 'warning',
    languages: ['java'],
    regex: String.raw`(?:"\s*[!=]=(?!=)|[!=]=\s*")`,
    needles: ['==', '!='],
    why: 'In Java, == on strings is true only for the same object: equal strings built at run time compare false.',
    suggestion: 'Use "literal".equals(value) or Objects.equals(a, b).',
    tags: ['correctness'],
    equivalents: [
      'suppress:StringEquality',
      'suppress:ReferenceEquality',
      'suppress:StringOperationCanBeSimplified',
      'suppress:CompareObjectsWithEquals',
    ],
    examples: [{ bad: 'if (status == "done") { finish(); }', good: 'if ("done".equals(status)) { finish(); }' }],
  }, {
    id: 'kotlin/not-null-assertion',
    message: '!! throws NullPointerException on null.',
    severity: 'warning',
    languages: ['kotlin'],
    regex: String.raw`(?<=[\w)\]}])!!`,
    linear: true,
    needles: ['!!'],
    why: '!! turns a nullable value into a crash when it is null, which is exactly the case the type warned about.',
    suggestion: 'Use ?. with ?: for a default, requireNotNull(x) { "why" }, or a smart-cast check.',
    tags: ['crash', 'null-safety'],
    equivalents: ['suppress:UnsafeCallOnNullableType'],
    refine: (m) => !checkedJustBefore(m, 'null'),
    // Off by default: detekt's UnsafeCallOnNullableType needs type resolution and Kotlin code uses !! for
    // invariants; on when detekt is configured for it, or with a severity override.
    disabledByDefault: true,
    examples: [{ bad: 'val name = user!!.name', good: 'val name = user?.name ?: ""' }],
  }, {
    id: 'kotlin/run-blocking',
    message: 'runBlocking blocks the calling thread.',
    severity: 'warning',
    languages: ['kotlin'],
    regex: String.raw`\brunBlocking\s*(?:<[^>\n]*>)?\s*(?:\([^()\n]*\)\s*)?\{`,
    needles: ['runBlocking'],
    why:
      "runBlocking parks the thread until the coroutine finishes: on Android's main thread that is an ANR; inside coroutines it can deadlock the dispatcher.",
    suggestion:
      'Make the caller a suspend function, or launch in a lifecycle-bound scope (viewModelScope.launch { … }).',
    tags: ['main-thread', 'coroutines'],
    equivalents: ['suppress:RunBlockingInSuspendFunction', 'suppress:BlockingMethodInNonBlockingContext'],
    refine: (m) => !inWorkerThreadFunction(m),
    examples: [
      { bad: 'val user = runBlocking { api.load() }', good: 'viewModelScope.launch { val user = api.load() }' },
      { bad: 'runBlocking(Dispatchers.IO) {\n    sync()\n}', good: 'scope.launch(Dispatchers.IO) {\n    sync()\n}' },
    ],
  }, {
    id: 'kotlin/global-scope',
    message: 'GlobalScope coroutines are never cancelled.',
    severity: 'warning',
    languages: ['kotlin'],
    regex: String.raw`\bGlobalScope\.(?:launch|async)\b`,
    linear: true,
    needles: ['GlobalScope'],
    why:
      'Work in GlobalScope outlives the screen or request that started it: leaks, wasted work, and updates to dead UI.',
    suggestion: 'Use a scope tied to a lifecycle (viewModelScope, lifecycleScope) or one you cancel.',
    tags: ['coroutines', 'memory'],
    equivalents: ['suppress:GlobalCoroutineUsage', 'suppress:DelicateCoroutinesApi'],
    examples: [{ bad: 'GlobalScope.launch { sync() }', good: 'viewModelScope.launch { sync() }' }],
  }, {
    id: 'java/thread-sleep',
    message: 'Thread.sleep blocks the thread.',
    severity: 'info',
    regex: String.raw`\bThread\.sleep\s*\(`,
    linear: true,
    needles: ['Thread.sleep'],
    why:
      'A sleeping thread does nothing else: on a UI thread the app freezes, in a pool it holds a worker hostage, and in tests it makes them slow and flaky.',
    suggestion:
      'Schedule the work (ScheduledExecutorService, delay() in coroutines) or wait on the condition you need.',
    tags: ['main-thread', 'performance'],
    equivalents: ['suppress:SleepInsteadOfDelay', 'suppress:BusyWait', 'suppress:SleepWhileHoldingLock'],
    refine: (m) => !inWorkerThreadFunction(m),
    // Off by default: a sleep in production code is mostly a deliberate back-off; no default inspection reports it.
    disabledByDefault: true,
    examples: [{ bad: 'Thread.sleep(1000);', good: 'scheduler.schedule(this::retry, 1, TimeUnit.SECONDS);' }],
  }],
);
