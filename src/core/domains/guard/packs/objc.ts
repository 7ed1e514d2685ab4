import { bracedBody } from './context';
import { pack } from './pack';

export const objcRules = pack(
  'objective-c',
  ['objective-c'],
  [{
    id: 'objc/block-retain-cycle',
    message: 'Block stored by self captures self (retain cycle).',
    severity: 'warning',
    // A block literal that self keeps: assigned to a property or ivar, given to a setter of self or of
    // what self holds (`[self.op setDoneBlock:^{…}]`), or made the handler of a dispatch source self
    // holds. The block's whole body (nested blocks too) is read for `self`.
    regex: String
      .raw`(?:(?:\bself\.\w+|\b_\w+)\s*=\s*|\[\s*(?:self(?:\.\w+)?|_\w+)\s+set\w+:\s*|\bdispatch_source_set_(?:event|cancel|registration)_handler\s*\(\s*(?:_\w+|self\.\w+)\s*,\s*)\^[^{;]*\{`,
    refine: (m) => /\bself\b/.test(bracedBody(m.code, m.end - 1)),
    needles: ['^'],
    why:
      'self retains the block through the property or ivar, and the block retains self: the object is never deallocated, and the block may run on a dead screen.',
    suggestion:
      'Capture a weak reference: __weak typeof(self) weakSelf = self; and use weakSelf (strongify inside if needed).',
    tags: ['memory', 'retain-cycle'],
    equivalents: ['clang:arc-retain-cycles', 'clang-tidy:clang-diagnostic-arc-retain-cycles'],
    examples: [{
      bad: 'self.completion = ^(NSData *data) {\n  [self handle:data];\n};',
      good: '__weak typeof(self) weakSelf = self;\nself.completion = ^(NSData *data) {\n  [weakSelf handle:data];\n};',
    }, {
      // hammerspoon: `self` only inside a nested block, after the first `}`.
      bad:
        '__weak HSCamera *weakSelf = self;\nself.watcherBlock = ^(UInt32 n) {\n  for (UInt32 i = 0; i < n; i++) {\n    [events addObject:@(i)];\n  }\n  dispatch_async(dispatch_get_main_queue(), ^{\n    if (self.callback == LUA_NOREF) { return; }\n  });\n};',
      good:
        'self.watcherBlock = ^(UInt32 n) {\n  for (UInt32 i = 0; i < n; i++) {\n    [events addObject:@(i)];\n  }\n};\n[self start];',
    }, {
      // CocoaLumberjack: the timer source is an ivar; RestKit: a setter of an object self holds.
      bad:
        'dispatch_source_set_event_handler(_saveTimer, ^{ @autoreleasepool {\n  [self performSave];\n} });\n[self.operation setCompletionBlock:^{\n  [self finish];\n}];',
      good:
        'dispatch_source_set_event_handler(timer, ^{ [self performSave]; });\n[operation setCompletionBlock:^{ [self finish]; }];\n__weak typeof(self) weakSelf = self;\n[self.operation setCompletionBlock:^{ [weakSelf finish]; }];',
    }],
  }, {
    id: 'objc/dispatch-sync-main',
    message: 'dispatch_sync to the main queue deadlocks on the main thread.',
    severity: 'error',
    regex: String.raw`\bdispatch_sync\s*\(\s*dispatch_get_main_queue\s*\(\s*\)`,
    needles: ['dispatch_sync'],
    why:
      'Called from the main thread, dispatch_sync(main) waits for itself forever; from another thread it blocks it on UI work.',
    suggestion: 'Use dispatch_async(dispatch_get_main_queue(), ^{ … }).',
    tags: ['deadlock', 'main-thread'],
    equivalents: ['clang-tidy:misc-dispatch-sync-main'],
    examples: [{
      bad: 'dispatch_sync(dispatch_get_main_queue(), ^{ [self reload]; });',
      good: 'dispatch_async(dispatch_get_main_queue(), ^{ [self reload]; });',
    }],
  }, {
    id: 'objc/strong-delegate',
    message: 'Delegate property is strong (retain cycle).',
    severity: 'warning',
    regex: String
      .raw`(@property\s*\((?:\s*\w+(?:\s*=\s*\w+)?\s*,)*\s*)(?:strong|retain)((?:\s*,\s*\w+(?:\s*=\s*\w+)?)*\s*\)\s*(?:IBOutlet\s+)?(?:id\b\s*(?:<[\w\s,]+>)?|\w+\s*<[\w\s,]+>\s*\*)\s*\w*[Dd]elegate\b)`,
    fix: '$1weak$2',
    needles: ['@property'],
    why:
      'The delegate usually owns the object that holds it; a strong reference back makes a cycle and neither is freed.',
    suggestion: 'Declare delegates weak: @property (nonatomic, weak) id<FooDelegate> delegate;',
    tags: ['memory', 'retain-cycle'],
    examples: [
      {
        bad: '@property (nonatomic, strong) id<LoaderDelegate> delegate;',
        good: '@property (nonatomic, weak) id<LoaderDelegate> delegate;',
      },
      {
        bad: '@property (nonatomic, retain) NSObject<LoaderDelegate>* delegate;',
        good:
          '@property (nonatomic, assign) NSObject<LoaderDelegate>* delegate;\n@property (atomic, strong) dispatch_queue_t delegateQueue;',
      },
    ],
  }, {
    id: 'objc/main-thread-sleep',
    message: 'Sleeping blocks the thread.',
    severity: 'warning',
    regex: String.raw`(?:\[NSThread\s+sleep\w*:|(?<![\w.])u?sleep\s*\()`,
    needles: ['sleep'],
    why: 'On the main thread a sleep freezes the UI, and the system watchdog terminates apps that stop responding.',
    suggestion: 'Schedule the work later with dispatch_after, or move it off the main thread.',
    tags: ['main-thread', 'performance'],
    examples: [{
      bad: '[NSThread sleepForTimeInterval:1.0];',
      good:
        'dispatch_after(dispatch_time(DISPATCH_TIME_NOW, NSEC_PER_SEC), dispatch_get_main_queue(), ^{ [self retry]; });',
    }],
  }],
);
