import type { GuardRule } from '../rule';
import { commonRules } from './common';
import { goRules } from './go';
import { jvmRules } from './jvm';
import { objcRules } from './objc';
import { pythonRules } from './python';
import { rustRules } from './rust';
import { swiftRules } from './swift';
import { typescriptRules } from './typescript';

export { builtinFixer, builtinRefiner } from './pack';

/** Every built-in rule, one pack per language family. (Importing this module also registers their refiners and fixers.) */
export function builtinRules(): GuardRule[] {
  return [
    ...typescriptRules,
    ...swiftRules,
    ...objcRules,
    ...pythonRules,
    ...goRules,
    ...jvmRules,
    ...rustRules,
    ...commonRules,
  ];
}
