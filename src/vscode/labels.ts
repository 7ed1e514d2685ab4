// Human labels for the core's identifiers (statuses, knowledge types, origins, counts), in the
// person's language. Views, the review panel and messages use these instead of raw keys.
import * as vscode from 'vscode';

export function statusLabel(status: string): string {
  switch (status) {
    case 'draft':
      return vscode.l10n.t('draft');
    case 'published':
      return vscode.l10n.t('published');
    case 'deprecated':
      return vscode.l10n.t('deprecated');
    case 'pending':
      return vscode.l10n.t('pending');
    case 'approved':
      return vscode.l10n.t('approved');
    case 'rejected':
      return vscode.l10n.t('rejected');
    default:
      return status;
  }
}

/** The knowledge types, in the order a person picks from, with their labels. */
export function knowledgeTypeLabels(): Record<string, string> {
  return {
    'code-standard': vscode.l10n.t('Code standard'),
    'code-style': vscode.l10n.t('Code style'),
    'best-practice': vscode.l10n.t('Best practice'),
    'boundary-constraint': vscode.l10n.t('Boundary constraint'),
    'anti-pattern': vscode.l10n.t('Anti-pattern'),
    'agent-guideline': vscode.l10n.t('Agent guideline'),
    'code-pattern': vscode.l10n.t('Code pattern'),
    architecture: vscode.l10n.t('Architecture'),
    solution: vscode.l10n.t('Solution'),
    'call-chain': vscode.l10n.t('Call chain'),
    'data-flow': vscode.l10n.t('Data flow'),
    'event-flow': vscode.l10n.t('Event flow'),
    'module-dependency': vscode.l10n.t('Module dependency'),
    'code-relation': vscode.l10n.t('Code relation'),
    inheritance: vscode.l10n.t('Inheritance'),
    'project-profile': vscode.l10n.t('Project profile'),
  };
}

export function knowledgeTypeLabel(type: string): string {
  return knowledgeTypeLabels()[type] ?? type;
}

export function kindLabel(kind: string): string {
  switch (kind) {
    case 'rule':
      return vscode.l10n.t('Rule');
    case 'pattern':
      return vscode.l10n.t('Pattern');
    case 'fact':
      return vscode.l10n.t('Fact');
    default:
      return kind;
  }
}

/** The cold-start scan's dimensions (`bootstrap:<dimension>` origins). */
export function dimensionLabel(dimension: string): string {
  switch (dimension) {
    case 'code-standard':
      return vscode.l10n.t('Code standards');
    case 'code-pattern':
      return vscode.l10n.t('Code patterns');
    case 'best-practice':
      return vscode.l10n.t('Best practices');
    case 'architecture':
      return vscode.l10n.t('Architecture');
    case 'event-data-flow':
      return vscode.l10n.t('Event and data flow');
    case 'agent-guidelines':
      return vscode.l10n.t('Agent guidelines');
    case 'project-profile':
      return vscode.l10n.t('Project profile');
    default:
      return dimension;
  }
}

/** Who proposed a candidate, as a person would say it: "the cold-start scan (Architecture)", "Copilot". */
export function proposerLabel(origin: string, createdBy: string): string {
  if (origin.startsWith('bootstrap')) {
    const dimension = origin.split(':')[1];
    return dimension
      ? vscode.l10n.t('the cold-start scan ({0})', dimensionLabel(dimension))
      : vscode.l10n.t('the cold-start scan');
  }
  if (origin === 'draft-file') return vscode.l10n.t('a draft recipe file');
  switch (createdBy) {
    case 'human':
      return vscode.l10n.t('a person');
    case 'copilot_agent':
      return vscode.l10n.t('Copilot');
    case 'external_agent':
      return vscode.l10n.t('an MCP client');
    default:
      return createdBy;
  }
}

/** The group a candidate falls in when the review groups by dimension. */
export function dimensionOf(origin: string): string {
  return origin.startsWith('bootstrap:') ? origin.slice('bootstrap:'.length) : '';
}

export function percent(confidence: number): string {
  return `${Math.round(Math.max(0, Math.min(1, confidence)) * 100)}%`;
}

/** Markdown code spans (`x`) shown as plain text in places that do not render Markdown (tree labels). */
export function plainText(text: string): string {
  return text.replace(/`([^`]*)`/g, '$1').replace(/\s+/g, ' ').trim();
}

/** Cuts at a word boundary (never inside a camelCase word) and adds an ellipsis. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A recipe's freshness: whether the code it cites is as recorded. */
export function freshnessLabel(freshness: string): string {
  switch (freshness) {
    case 'stale':
      return vscode.l10n.t('stale');
    case 'moved':
      return vscode.l10n.t('moved');
    case 'fresh':
      return vscode.l10n.t('up to date');
    case 'untracked':
      return vscode.l10n.t('not tracked');
    default:
      return freshness;
  }
}

/** What happened to one cited source of a recipe (a row of "Review Changes"). */
export function sourceChangeLabel(state: string): string {
  switch (state) {
    case 'changed':
      return vscode.l10n.t('lines changed');
    case 'deleted':
      return vscode.l10n.t('file gone');
    case 'moved':
      return vscode.l10n.t('lines moved');
    case 'excerpt':
      return vscode.l10n.t("the recipe's code");
    case 'unreadable':
      return vscode.l10n.t('cannot be read');
    default:
      return state;
  }
}
