import { ZH_CN } from './packs/zh-cn';
import type { GuardRule, Violation } from './rule';

/**
 * The language built-in rules speak. The core knows no editor: each adapter passes the locale it has
 * (VS Code's display language, the CLI's --locale or LANG). Project and recipe rules keep the words
 * their authors wrote.
 */
export type GuardLocale = 'en' | 'zh-cn';

const TABLES: Record<Exclude<GuardLocale, 'en'>, typeof ZH_CN> = { 'zh-cn': ZH_CN };

/** `zh-cn`, `zh-Hans`, `zh_CN.UTF-8` and plain `zh` are Simplified Chinese; everything else English. */
export function guardLocale(tag: string | undefined): GuardLocale {
  return tag && /^zh(?:$|[-_](?:cn|hans|sg)\b)/i.test(tag.trim()) ? 'zh-cn' : 'en';
}

function textsOf(ruleId: string, origin: GuardRule['origin'] | undefined, locale: GuardLocale) {
  return locale === 'en' || (origin !== undefined && origin !== 'builtin') ? undefined : TABLES[locale][ruleId];
}

/** A built-in rule with its message, why and suggestion in the locale. */
export function localizeRule(rule: GuardRule, locale: GuardLocale): GuardRule {
  const t = textsOf(rule.id, rule.origin, locale);
  return t ? { ...rule, message: t[0], why: t[1], suggestion: t[2] } : rule;
}

/**
 * A finding in the locale when its rule is a built-in one (`origin` of the rule that runs under the
 * id: a project rule may replace a built-in rule, and then its own words stay).
 */
export function localizeViolation(
  v: Violation,
  locale: GuardLocale,
  origin: GuardRule['origin'] | undefined,
): Violation {
  const t = origin === 'builtin' ? textsOf(v.ruleId, origin, locale) : undefined;
  return t ? { ...v, message: t[0], why: t[1], suggestion: t[2] } : v;
}
