// One comment masker for every language: the build-script and manifest readers blank comments with
// the guard's lexer, so each language's comment and string forms are read the same way everywhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskGradleComments } from '../../src/core/domains/structure/ecosystems/gradle-build';
import { blankComments } from '../../src/core/ground/text/comments';

/** Every line keeps its length and the text keeps its line breaks: offsets and line numbers still hold. */
function assertShape(before: string, after: string): void {
  assert.deepEqual(after.split('\n').map((l) => l.length), before.split('\n').map((l) => l.length));
}

test('Gradle scripts (Groovy and Kotlin DSL): comments blanked whole, strings kept, a URL in a string is no comment', () => {
  const script = [
    'dependencies {',
    '  // implementation("old:lib:1.0")',
    '  implementation("com.squareup.okhttp3:okhttp:4.12.0") // the client',
    "  testImplementation 'junit:junit:4.13.2' /* inline */",
    '  /* a block',
    '     api("gone:lib:1") */',
    '  maven { url = uri("https://repo.example.com/maven") }',
    '  def s = """text with // no comment"""',
    '}',
  ].join('\n');
  const code = maskGradleComments(script);
  assertShape(script, code);
  assert.doesNotMatch(code, /old:lib|gone:lib|the client|inline|\/\/ implementation|\/\*/);
  assert.match(code, /implementation\("com\.squareup\.okhttp3:okhttp:4\.12\.0"\)/);
  assert.match(code, /testImplementation 'junit:junit:4\.13\.2'/);
  assert.match(code, /uri\("https:\/\/repo\.example\.com\/maven"\)/);
  assert.match(code, /"""text with \/\/ no comment"""/);
});

test('Swift manifests: nested block comments, raw and multi-line strings', () => {
  const manifest = [
    'let package = Package(',
    '  name: "Kit", // the name',
    '  /* outer /* inner */ .target(name: "Hidden") */',
    '  targets: [.target(name: "Core", path: #"Sources/"Core"//x"#)],',
    '  swiftSettings: [.define("A")] /// doc',
    '  resources: """',
    '  // kept: inside a string',
    '  """',
    ')',
  ].join('\n');
  const code = blankComments(manifest, 'swift');
  assertShape(manifest, code);
  assert.doesNotMatch(code, /the name|Hidden|outer|doc/);
  assert.match(code, /\.target\(name: "Core", path: #"Sources\/"Core"\/\/x"#\)/);
  assert.match(code, /\/\/ kept: inside a string/);
});

test('each family keeps its own forms: a hash comment in Python, a regex with slashes in JavaScript', () => {
  const py = 's = "# not a comment"  # a comment\nx = 1\n';
  assert.equal(blankComments(py, 'python'), 's = "# not a comment"             \nx = 1\n');
  const js = 'const re = /\\/\\/ not a comment/; // comment\n';
  assert.equal(blankComments(js, 'javascript'), 'const re = /\\/\\/ not a comment/;           \n');
  const crlf = 'a(); // note\r\nb();';
  assert.equal(blankComments(crlf, 'typescript'), 'a();        \r\nb();');
  assert.equal(blankComments('no comments here', 'go'), 'no comments here');
});
