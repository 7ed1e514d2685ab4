import { pack } from './pack';

/** Rules for every language. */
export const commonRules = pack('common', ['*'], [
  {
    id: 'common/merge-conflict-marker',
    message: 'Merge conflict marker left in the file.',
    severity: 'error',
    regex: String.raw`^(?:<{7}|>{7}|={7})(?: |$)`,
    flags: 'm',
    scope: 'any',
    why: 'An unresolved conflict does not compile, or worse, compiles in a language where the marker is valid text.',
    suggestion: 'Resolve the conflict and remove the markers.',
    tags: ['hygiene'],
    examples: [{ bad: 'const a = 1;\n<<<<<<< HEAD\nconst b = 2;\n=======\nconst b = 3;\n>>>>>>> main\n', good: 'const a = 1;\nconst b = 3;\n' }],
  },
  {
    id: 'common/private-key',
    message: 'Private key committed in source.',
    severity: 'error',
    regex: String.raw`-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----`,
    scope: 'any',
    why: 'A key in the repository is readable by everyone with access to it, in every clone and forever in history.',
    suggestion: 'Remove it, rotate the key, and load it from a secret store or an environment variable.',
    tags: ['security', 'secrets'],
    // The example is the pattern's own true positive, not a key.
    // autosnippet-guard-disable-next-line common/private-key
    examples: [{ bad: 'const key = "-----BEGIN RSA PRIVATE KEY-----\\nMIIE...";', good: 'const key = process.env.SIGNING_KEY;' }],
  },
]);
