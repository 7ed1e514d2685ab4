// Replaced at bundle time would be nicer; reading package.json keeps one source of truth for now.
// eslint-disable-next-line @typescript-eslint/no-var-requires
export const VERSION: string = (require('../../package.json') as { version: string }).version;
