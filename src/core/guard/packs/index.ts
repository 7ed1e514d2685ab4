import type { GuardRule } from '../rule';
import { commonRules } from './common';
import { goRules } from './go';
import { jvmRules } from './jvm';
import { objcRules } from './objc';
import { pythonRules } from './python';
import { rustRules } from './rust';
import { swiftRules } from './swift';
import { typescriptRules } from './typescript';

/** Every built-in rule, one pack per language family. */
export function builtinRules(): GuardRule[] {
  return [...typescriptRules, ...swiftRules, ...objcRules, ...pythonRules, ...goRules, ...jvmRules, ...rustRules, ...commonRules];
}
