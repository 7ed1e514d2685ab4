import * as vscode from 'vscode';

/** Every label the review page shows, translated here (the page has no access to vscode.l10n). */
export function reviewStrings(): Record<string, string> {
  return {
    title: vscode.l10n.t('Review Candidates'),
    refresh: vscode.l10n.t('Refresh'),
    search: vscode.l10n.t('Filter by text'),
    status: vscode.l10n.t('Status'),
    statusPending: vscode.l10n.t('Pending'),
    statusApproved: vscode.l10n.t('Approved'),
    statusRejected: vscode.l10n.t('Rejected'),
    statusAll: vscode.l10n.t('All'),
    language: vscode.l10n.t('Language'),
    languageAll: vscode.l10n.t('All languages'),
    groupBy: vscode.l10n.t('Group by'),
    groupCategory: vscode.l10n.t('Category'),
    groupDimension: vscode.l10n.t('Dimension'),
    groupLanguage: vscode.l10n.t('Language'),
    groupNone: vscode.l10n.t('No grouping'),
    sortBy: vscode.l10n.t('Sort by'),
    sortConfidence: vscode.l10n.t('Confidence'),
    sortNewest: vscode.l10n.t('Newest'),
    sortTitle: vscode.l10n.t('Title'),
    otherDimension: vscode.l10n.t('Proposed by people and agents'),
    selected: vscode.l10n.t('{0} selected'),
    selectAll: vscode.l10n.t('Select all shown'),
    selectGroup: vscode.l10n.t('Select every candidate in {0}'),
    clearSelection: vscode.l10n.t('Clear selection'),
    approveN: vscode.l10n.t('Approve {0}'),
    rejectN: vscode.l10n.t('Reject {0}…'),
    approve: vscode.l10n.t('Approve'),
    reject: vscode.l10n.t('Reject…'),
    rejectReason: vscode.l10n.t('Why are they rejected? Agents read the reason.'),
    rejectConfirm: vscode.l10n.t('Reject'),
    cancel: vscode.l10n.t('Cancel'),
    edit: vscode.l10n.t('Edit'),
    save: vscode.l10n.t('Save'),
    saved: vscode.l10n.t('Saved.'),
    dismiss: vscode.l10n.t('Dismiss'),
    empty: vscode.l10n.t('No candidates match. Change the filters, or run "Bootstrap Knowledge" to scan the project.'),
    emptyAll: vscode.l10n.t(
      'No candidates yet. Agents propose knowledge as they work; "Bootstrap Knowledge" scans the project for its conventions.',
    ),
    bootstrap: vscode.l10n.t('Bootstrap Knowledge'),
    pickOne: vscode.l10n.t('Select a candidate to review it.'),
    loading: vscode.l10n.t('Loading…'),
    working: vscode.l10n.t('Working…'),
    claim: vscode.l10n.t('What it says'),
    why: vscode.l10n.t('Why it is a standard here'),
    noWhy: vscode.l10n.t('No reason given yet.'),
    code: vscode.l10n.t('Code'),
    noCode: vscode.l10n.t('No code.'),
    usage: vscode.l10n.t('When to use it'),
    sources: vscode.l10n.t('Seen in'),
    noSources: vscode.l10n.t('No sources: ask for file:line evidence before approving.'),
    guardRule: vscode.l10n.t('Guard rule (approved with the candidate, enforced once its recipe is published)'),
    guardClean: vscode.l10n.t('Reported nothing in {0} files when it was drafted.'),
    guardFound: vscode.l10n.t('Reported {0} place(s) when it was drafted: each is a violation, or the rule is wrong.'),
    openSource: vscode.l10n.t('Open {0} at line {1}'),
    confidence: vscode.l10n.t('Confidence'),
    similar: vscode.l10n.t('Similar knowledge'),
    noSimilar: vscode.l10n.t('Nothing similar in the recipes or the pending candidates.'),
    similarRecipe: vscode.l10n.t('recipe'),
    similarCandidate: vscode.l10n.t('candidate'),
    issues: vscode.l10n.t('Before approving'),
    proposedBy: vscode.l10n.t('Proposed by {0}, {1}'),
    decided: vscode.l10n.t('{0} by {1}, {2}'),
    rejectedBecause: vscode.l10n.t('Rejected: {0}'),
    openRecipe: vscode.l10n.t('Open its recipe file'),
    fieldTitle: vscode.l10n.t('Title'),
    fieldSummary: vscode.l10n.t('Summary'),
    fieldWhy: vscode.l10n.t('Why it is a standard here'),
    fieldTrigger: vscode.l10n.t('Trigger'),
    fieldCategory: vscode.l10n.t('Category'),
    fieldLanguage: vscode.l10n.t('Language'),
    fieldType: vscode.l10n.t('Knowledge type'),
    fieldCode: vscode.l10n.t('Code'),
    fieldUsage: vscode.l10n.t('When to use it'),
    undo: vscode.l10n.t('Undo'),
    keys: vscode.l10n.t(
      'Keys: j/k or ↓/↑ next/previous · a approve · r reject · e edit · u undo · Ctrl+Enter save · Esc cancel',
    ),
    rejectOneReason: vscode.l10n.t('Why is it rejected? Enter rejects, Esc cancels.'),
    checklistGo: vscode.l10n.t('Go to the field'),
    errTitle: vscode.l10n.t('Give it a title of a few words (3–200 characters).'),
    errTrigger: vscode.l10n.t('@ followed by letters, digits, _ . or - (no spaces), e.g. @fetchWithRetry.'),
    errCategory: vscode.l10n.t('A category is needed: it is the folder the recipe is filed under.'),
    errSummary: vscode.l10n.t('At most 2,000 characters.'),
    failed: vscode.l10n.t('Not done:'),
    person: vscode.l10n.t('a person'),
    agent: vscode.l10n.t('an agent'),
    count: vscode.l10n.t('{0} of {1} shown'),
  };
}

/**
 * A checklist item in the person's language, by the form field it belongs to. The core's message
 * decides between the two things a weak code field can mean (a placeholder, or too long).
 */
export function checklistMessage(field: string, severity: string, coreMessage: string): string {
  switch (field) {
    case 'title':
      return vscode.l10n.t('Name the practice in a title of 8–80 characters.');
    case 'summary':
      return vscode.l10n.t('Write a summary: one or two full sentences on what to do and when.');
    case 'knowledgeType':
      return vscode.l10n.t('Choose the knowledge type.');
    case 'whyStandard':
      return vscode.l10n.t('Say why this is a standard here, with the evidence (e.g. "used in 14 of 16 API clients").');
    case 'usageGuide':
      return vscode.l10n.t('Add a usage guide: when to use it, when not, and what to watch out for.');
    case 'trigger':
      return vscode.l10n.t('Fix the trigger: @ followed by letters, digits, _ . or - (no spaces).');
    case 'category':
      return vscode.l10n.t('Give it a category: the folder the recipe is filed under.');
    case 'language':
      return vscode.l10n.t('Name the language as a VS Code language id (typescript, python, toml…).');
    case 'code':
      if (severity !== 'weak') return vscode.l10n.t('Add the essential lines of code from the project.');
      return /placeholder/.test(coreMessage)
        ? vscode.l10n.t('The code looks like a placeholder: paste the real lines from the project.')
        : vscode.l10n.t('Keep only the essential code (at most about 80 lines).');
    default:
      return coreMessage;
  }
}
