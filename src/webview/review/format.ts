// The page's words in the person's language: the strings come translated with the set-up message,
// relative dates from Intl in the page's language.
import { lang, view } from './state';

export function t(key: string, ...args: (string | number)[]): string {
  const s = view.setup?.strings[key] ?? key;
  return s.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}

export function relativeTime(iso: string | undefined): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const minutes = Math.round((then - Date.now()) / 60000);
  if (Math.abs(minutes) < 60) return rtf.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return rtf.format(hours, 'hour');
  return rtf.format(Math.round(hours / 24), 'day');
}

export function percent(x: number): string {
  return `${Math.round(Math.max(0, Math.min(1, x)) * 100)}%`;
}

export function typeLabel(type: string): string {
  return view.setup?.knowledgeTypes.find((k) => k.value === type)?.label ?? type;
}
