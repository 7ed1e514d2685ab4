/** Facts about a regex source needed to combine several rules into one alternation. */
export interface RegexShape {
  /** Capturing groups, numbered or named. */
  groups: number;
  named: boolean;
  backreferences: boolean;
}

export function regexShape(source: string): RegexShape {
  let groups = 0;
  let named = false;
  let backreferences = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[i + 1];
      if (!inClass && (/[1-9]/.test(n) || n === 'k')) backreferences = true;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') {
      if (source[i + 1] !== '?') groups++;
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        groups++;
        named = true;
      }
    }
  }
  return { groups, named, backreferences };
}

/** Expands a replacement template ($&, $1…$99, $<name>, $$) with the given groups. */
export function expandTemplate(
  template: string,
  whole: string,
  groups: (string | undefined)[],
  named?: Record<string, string | undefined>,
): string {
  return template.replace(/\$(\$|&|\d{1,2}|<([^>]+)>)/g, (all, token: string, name?: string) => {
    if (token === '$') return '$';
    if (token === '&') return whole;
    if (name !== undefined) return named?.[name] ?? '';
    const n = Number(token);
    if (n >= 1 && n <= groups.length) return groups[n - 1] ?? '';
    return all;
  });
}
