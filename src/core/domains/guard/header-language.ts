import { existsSync } from 'node:fs';

/** Objective-C constructs that C and C++ headers never contain. */
const OBJC_HEADER = /^\s*(?:@interface|@protocol|@class|@property|@end|NS_ASSUME_NONNULL_BEGIN|#import\s*[<"])/m;

/**
 * The language of a `.h` file, which its extension does not tell: Objective-C when a `.m` or `.mm`
 * file of the same name sits beside it or when it declares Objective-C, otherwise the C or C++ it
 * was taken for. Other files keep their language.
 */
export function headerLanguage(absPath: string, text: string, language: string): string {
  if (!absPath.endsWith('.h') || (language !== 'c' && language !== 'cpp')) return language;
  const stem = absPath.slice(0, -2);
  if (existsSync(`${stem}.m`) || existsSync(`${stem}.mm`)) return 'objective-c';
  return OBJC_HEADER.test(text.length > 16_384 ? text.slice(0, 16_384) : text) ? 'objective-c' : language;
}
