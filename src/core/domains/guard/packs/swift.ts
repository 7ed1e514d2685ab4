import { checkedJustBefore } from './context';
import { type MatchSite, pack } from './pack';

/** `x!.y` → `x?.y`; elsewhere `?` would change the type, so no fix is offered. */
function optionalChainFix(m: MatchSite): string | undefined {
  return m.text[m.end] === '.' || m.text[m.end] === '[' || m.text[m.end] === '(' ? '?' : undefined;
}

export const swiftRules = pack(
  'swift',
  ['swift'],
  [{
    id: 'swift/force-cast',
    message: 'Force cast (as!) crashes when the value has another type.',
    severity: 'warning',
    regex: String.raw`\bas!(?=\s)`,
    fix: 'as?',
    equivalents: ['swiftlint:force_cast'],
    linear: true,
    needles: ['as!'],
    why:
      "as! traps at run time when the cast fails: a server payload or a cell of an unexpected class becomes a crash in the user's hands.",
    suggestion: 'Use as? with guard let / if let and handle the other case.',
    tags: ['crash', 'optionals'],
    // `x.copy() as! T`: NSCopying's copy() returns Any, and the cast restores the receiver's own class.
    refine: (m) => !/\.(?:mutableC|c)opy\(\s*\)\s*$/.test(m.code.slice(Math.max(0, m.start - 40), m.start)),
    examples: [
      {
        bad: 'let cell = table.dequeueReusableCell(withIdentifier: id) as! UserCell',
        good:
          'guard let cell = table.dequeueReusableCell(withIdentifier: id) as? UserCell else { return UITableViewCell() }',
      },
      {
        bad: 'let item = items.first(where: isNew) as! Item',
        good:
          'guard images == nil else { return base.copy() as! KFCrossPlatformImage }\nlet list = array.mutableCopy() as! NSMutableArray',
      },
    ],
  }, {
    id: 'swift/force-try',
    message: 'try! crashes when the call throws.',
    severity: 'warning',
    regex: String.raw`\btry!(?=\s)`,
    equivalents: ['swiftlint:force_try'],
    linear: true,
    needles: ['try!'],
    why:
      'try! turns every error the call can throw into a crash, including the ones that depend on input, disk or network.',
    suggestion: 'Use do { try … } catch { … }, or try? when a nil result is a real answer.',
    tags: ['crash', 'error-handling'],
    examples: [{
      bad: 'let data = try! Data(contentsOf: url)',
      good: 'do { let data = try Data(contentsOf: url) } catch { log(error) }',
    }],
  }, {
    id: 'swift/force-unwrap',
    message: 'Force unwrap (!) crashes on nil.',
    severity: 'warning',
    // Any postfix `!` after an expression (`dict[key]!`, `URL(string: s)!`, `throw error!`, `x!,`),
    // not `!=`, not prefix `!`, not `try!` / `as!`, and not an implicitly unwrapped type (`: Foo!`).
    regex: String
      .raw`(?<=[\w)\]}])(?<!\btry|\bas)(?<!(?::|->)\s*(?:[A-Z]\w*(?:\.[A-Z]\w*)*|\[[^\[\]\n]*\]|\([^\n]*\)))!(?![=!])`,
    fixer: optionalChainFix,
    refine: (m) => !checkedJustBefore(m, 'nil'),
    equivalents: ['swiftlint:force_unwrapping'],
    needles: ['!'],
    why:
      'x! traps when x is nil; optionals that "can never be nil" become nil after the next refactor, and the crash shows up far from the cause.',
    suggestion: 'Unwrap with guard let / if let, use optional chaining x?.y, or give a default with ??.',
    tags: ['crash', 'optionals'],
    // Off by default like SwiftLint's force_unwrapping (an opt-in rule): in mature code most force
    // unwraps state an invariant. On when .swiftlint.yml opts in, or with a severity override.
    disabledByDefault: true,
    examples: [
      { bad: 'let name = user!.name', good: 'let name = user?.name ?? ""' },
      { bad: 'let url = URL(string: base)!', good: 'guard let url = URL(string: base) else { throw Failure.badURL }' },
      { bad: 'let value = parameters[key]!', good: 'var label: UILabel!\nif value != nil, !flag { run(try? load()) }' },
      {
        bad: 'throw error!',
        good:
          'let session: Session!\nlet f: ((Int) -> Void)!\nlet m: [String: Any]!\nguard error == nil else { throw error! }',
      },
    ],
  }, {
    id: 'swift/closure-captures-self',
    message: 'Stored or long-lived closure captures self strongly (retain cycle).',
    severity: 'warning',
    // A DispatchSource keeps its handlers (setEventHandler…) as long as the source lives: kept by self, a cycle.
    regex: String
      .raw`(?:\bself\.\w+\s*=\s*|\.(?:sink|observe|scheduledTimer|addObserver|setEventHandler|setCancelHandler|setRegistrationHandler)\b[^{\n]*)\{(?!\s*\[\s*(?:weak|unowned)\s+self)[^}]*\bself\b`,
    needles: ['self'],
    why:
      'self keeps the closure (a stored property, a Combine subscription, a timer, an observer) and the closure keeps self: neither is ever freed, and the closure keeps running after the screen is gone.',
    suggestion: 'Capture self weakly: { [weak self] in guard let self else { return } … }.',
    tags: ['memory', 'retain-cycle'],
    examples: [
      {
        bad: 'self.onChange = { value in\n  self.label.text = value\n}',
        good: 'self.onChange = { [weak self] value in\n  self?.label.text = value\n}',
      },
      {
        bad: 'cancellable = publisher.sink { value in self.update(value) }',
        good: 'cancellable = publisher.sink { [weak self] value in self?.update(value) }',
      },
    ],
  }, {
    id: 'swift/main-sync',
    message: 'DispatchQueue.main.sync deadlocks when called on the main thread.',
    severity: 'error',
    regex: String.raw`\bDispatchQueue\.main\.sync\b`,
    fix: 'DispatchQueue.main.async',
    linear: true,
    needles: ['main.sync'],
    why:
      'Called from the main thread, main.sync waits for itself forever; called from elsewhere it blocks that thread on UI work.',
    suggestion: 'Use DispatchQueue.main.async, or mark the function @MainActor and await it.',
    tags: ['deadlock', 'main-thread'],
    examples: [{
      bad: 'DispatchQueue.main.sync { self.reload() }',
      good: 'DispatchQueue.main.async { self.reload() }',
    }],
  }, {
    id: 'swift/thread-sleep',
    message: 'Sleeping blocks the thread.',
    severity: 'warning',
    regex: String.raw`(?:\bThread\.sleep\b|(?<![\w.])u?sleep\s*\()`,
    needles: ['sleep'],
    why:
      'On the main thread a sleep freezes the UI (and the watchdog kills apps that hang at launch); in concurrent code it holds a cooperative-pool thread hostage.',
    suggestion: 'Use try await Task.sleep(for:) in async code, or schedule work with DispatchQueue.asyncAfter.',
    tags: ['main-thread', 'performance'],
    // `func sleep(` declares one (RxSwift's VirtualTimeScheduler), it does not call it.
    refine: (m) => !/\bfunc\s+$/.test(m.code.slice(Math.max(0, m.start - 16), m.start)),
    examples: [{ bad: 'Thread.sleep(forTimeInterval: 1)', good: 'try await Task.sleep(for: .seconds(1))' }],
  }],
);
