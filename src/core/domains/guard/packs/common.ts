import { type MatchSite, pack } from './pack';

/** `=======` and `>>>>>>>` count only after a `<<<<<<<` opened a conflict (seven `=` also underline a heading). */
function insideConflict(m: MatchSite): boolean {
  return m.text[m.start] === '<' || /^<{7}(?: |$)/m.test(m.text.slice(0, m.start));
}

/** Rules for every language. */
export const commonRules = pack(
  'common',
  ['*'],
  [{
    id: 'common/merge-conflict-marker',
    message: 'Merge conflict marker left in the file.',
    severity: 'error',
    regex: String.raw`^(?:<{7}|>{7}|={7})(?: |$)`,
    flags: 'm',
    scope: 'any',
    refine: insideConflict,
    // A marker breaks a test or a build script as surely as a source file.
    reach: 'all',
    linear: true,
    needles: ['<<<<<<<'],
    why: 'An unresolved conflict does not compile, or worse, compiles in a language where the marker is valid text.',
    suggestion: 'Resolve the conflict and remove the markers.',
    tags: ['hygiene'],
    examples: [
      {
        bad: 'const a = 1;\n<<<<<<< HEAD\nconst b = 2;\n=======\nconst b = 3;\n>>>>>>> main\n',
        good: 'const a = 1;\nconst b = 3;\n',
      },
      {
        bad: '<<<<<<< ours\nx = 1\n=======\nx = 2\n>>>>>>> theirs\n',
        good: 'def f():\n    """Usage\n=======\n\n    f()\n    """\n',
        language: 'python',
      },
    ],
  }, {
    id: 'common/private-key',
    message: 'Private key committed in source.',
    severity: 'error',
    // A key, not the words that start one: the header, then base64 material, inside a string. A doc
    // comment showing the format is not a leak, and test keys live in tests and fixtures, which the
    // rule does not reach.
    regex: String
      .raw`-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----(?:\\[nr]|[\s|"'+,*])*[A-Za-z0-9/][A-Za-z0-9+/]{39}`,
    scope: 'strings',
    reach: 'production',
    needles: ['PRIVATE KEY'],
    why: 'A key in the repository is readable by everyone with access to it, in every clone and forever in history.',
    suggestion: 'Remove it, rotate the key, and load it from a secret store or an environment variable.',
    tags: ['security', 'secrets'],
    // The examples are the pattern's own true positives, not keys.
    // autosnippet-guard-disable-next-line common/private-key
    examples: [
      {
        bad: 'const key = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEAuKc1GZk3yqUaW2iZ6vtBf0X0pLq8sPq1dQ==";',
        good: 'const key = process.env.SIGNING_KEY;\nout.append("-----BEGIN PRIVATE KEY-----\\n");',
      },
      {
        bad:
          'val pem = """\n  |-----BEGIN PRIVATE KEY-----\n  |MEECAQAwEwYHKoZIzj0CAQYIKoZIzj0DAQcEJzAlAgEBBCA7ODT0xhGSNn4ESj6J\n  """',
        good:
          '/**\n * -----BEGIN PRIVATE KEY-----\n * MEECAQAwEwYHKoZIzj0CAQYIKoZIzj0DAQcEJzAlAgEBBCA7ODT0xhGSNn4ESj6J\n */\nfun key() = load()',
        language: 'kotlin',
      },
    ],
  }],
);
