import type { FileKind } from './files/classify';

/** Settings the core reads. Adapters fill them from VS Code configuration, CLI flags or defaults. */
export interface Settings {
  skills: { allowScripts: boolean };
  guard: {
    enabled: boolean;
    exclude: string[];
    severityOverrides: Record<string, string>;
    /** Kinds of files guard does not check (see files/classify.ts). */
    skipKinds: FileKind[];
  };
  /** False in an untrusted VS Code workspace: project guard rules and skill scripts do not run. */
  trusted: boolean;
}

export const defaultSettings: Settings = {
  skills: { allowScripts: false },
  guard: { enabled: true, exclude: [], severityOverrides: {}, skipKinds: ['vendored', 'generated', 'minified'] },
  trusted: true,
};

export function mergeSettings(partial?: DeepPartial<Settings>): Settings {
  return {
    skills: { ...defaultSettings.skills, ...partial?.skills },
    guard: { ...defaultSettings.guard, ...(partial?.guard as Settings['guard'] | undefined) },
    trusted: partial?.trusted ?? defaultSettings.trusted,
  };
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
