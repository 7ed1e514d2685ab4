import { ANALYZER_VERSION } from './analyze';
import { stem } from './stem';
import { isStopword } from './stopwords';
import { tokenize } from './tokenize';

/**
 * Turns texts into unit vectors whose dot product says how close they are in meaning. The built-in
 * one works offline with nothing downloaded; a real embedding model plugs in by implementing this
 * (vectors are stored with the embedder's `id`, so changing it re-embeds the recipes on next sync).
 */
export interface Embedder {
  /** Names the model and its version; stored with every vector. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /**
   * The vector of a text given as its `tokenize` tokens, the same as `embed` gives for the text; an
   * embedder that works on words offers it so an indexer that analyses the text too splits it once.
   */
  embedTokens?(tokens: readonly string[]): Float32Array;
}

/**
 * Feature hashing of words, character trigrams of words and a small table of programming synonyms
 * and abbreviations (auth ↔ authentication, db ↔ database…) into a fixed number of dimensions, with
 * sublinear term frequency and signed hashing. It finds near matches keyword search misses
 * (inflections, typos, compounds, abbreviations) but knows no meaning beyond that table.
 */
export class HashedNgramEmbedder implements Embedder {
  readonly id: string;
  constructor(readonly dimensions = 256) {
    this.id = `hashed-ngram-v2-a${ANALYZER_VERSION}-${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  /**
   * Each word met gets an id and its features (dimension and signed weight at term frequency 1),
   * computed once: recipes share most of their vocabulary, and hashing every feature of every word
   * again was most of the time embedding took. The features sit in two pools (`featCount` pairs from
   * `featStart`; none for stopwords and one-letter words), so a large vocabulary is a few typed
   * arrays, not an object per word for the garbage collector to trace.
   */
  private readonly ids = new Map<string, number>();
  private featStart = new Int32Array(4096);
  private featCount = new Int32Array(4096);
  /** Per word id: the last text that met it, and how often that text did. */
  private seenIn = new Int32Array(4096);
  private tf = new Int32Array(4096);
  private dimPool = new Int32Array(65536);
  private weightPool = new Float64Array(65536);
  private poolUsed = 0;
  /** The word ids of the text being embedded, in order of first occurrence. */
  private seen = new Int32Array(1024);
  private epoch = 0;

  embedOne(text: string): Float32Array {
    return this.embedTokens(tokenize(text));
  }

  /** The vector of a text already split by `tokenize` (so a caller that analyses it too splits it once). */
  embedTokens(tokens: readonly string[]): Float32Array {
    const v = new Float32Array(this.dimensions);
    // Between texts, so a text's words keep one id each.
    if (this.ids.size >= MAX_CACHED_WORDS || this.epoch >= 0x3fffffff) this.forget();
    const epoch = ++this.epoch;
    let n = 0;
    for (const word of tokens) {
      const id = this.ids.get(word) ?? this.addWord(word);
      if (this.featCount[id] === 0) continue;
      if (this.seenIn[id] !== epoch) {
        this.seenIn[id] = epoch;
        this.tf[id] = 0;
        if (n === this.seen.length) this.seen = grown(this.seen, n * 2);
        this.seen[n++] = id;
      }
      this.tf[id]++;
    }
    const dims = this.dimPool;
    const weights = this.weightPool;
    for (let k = 0; k < n; k++) {
      const id = this.seen[k];
      const w = 1 + Math.log(this.tf[id]);
      const end = this.featStart[id] + this.featCount[id];
      for (let i = this.featStart[id]; i < end; i++) v[dims[i]] += w * weights[i];
    }
    let norm = 0;
    for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
    norm = Math.sqrt(norm);
    if (norm > 0) { for (let i = 0; i < v.length; i++) v[i] /= norm; }
    return v;
  }

  private forget(): void {
    this.ids.clear();
    this.poolUsed = 0;
    this.epoch = 0;
    this.seenIn.fill(0);
  }

  /** A new word's id and features: the word itself, its concept, its trigrams. */
  private addWord(word: string): number {
    const id = this.ids.size;
    this.ids.set(word, id);
    if (id === this.featStart.length) {
      const size = id * 2;
      this.featStart = grown(this.featStart, size);
      this.featCount = grown(this.featCount, size);
      this.seenIn = grown(this.seenIn, size);
      this.tf = grown(this.tf, size);
    }
    this.featStart[id] = this.poolUsed;
    this.featCount[id] = 0;
    this.seenIn[id] = 0;
    if (isStopword(word) || word.length < 2) return id;
    const L = word.length;
    // At most: the word, its concept, one trigram per character (`^word$` has L of them).
    if (this.poolUsed + L + 2 > this.dimPool.length) {
      const size = Math.max(this.dimPool.length * 2, this.poolUsed + L + 2);
      this.dimPool = grown(this.dimPool, size);
      const weights = new Float64Array(size);
      weights.set(this.weightPool);
      this.weightPool = weights;
    }
    const add = (h: number, weight: number) => {
      const at = this.poolUsed++;
      this.dimPool[at] = h % this.dimensions;
      this.weightPool[at] = h & 0x80000000 ? -weight : weight;
    };
    add(fnv1a(word, W_PREFIX) >>> 0, 1);
    const concept = CONCEPTS.get(word) ?? CONCEPTS.get(stem(word));
    if (concept) add(fnv1a(concept, C_PREFIX) >>> 0, 1);
    // Trigrams of `^word$` (a word of up to three characters is its own one trigram), hashed in place.
    if (L <= 3) add(fnv1a(word, G_PREFIX) >>> 0, 0.6);
    else {
      const gw = 0.6 / Math.sqrt(L);
      const at = (j: number) => (j === 0 ? 94 : j === L + 1 ? 36 : word.charCodeAt(j - 1));
      for (let i = 0; i < L; i++) {
        let h = G_PREFIX;
        for (let j = i; j < i + 3; j++) h = Math.imul(h ^ at(j), 0x01000193);
        add(h >>> 0, gw);
      }
    }
    this.featCount[id] = this.poolUsed - this.featStart[id];
    return id;
  }
}

function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(size);
  out.set(a);
  return out;
}

/** Words whose features are kept: a large vocabulary's worth (each takes a few dozen numbers). */
const MAX_CACHED_WORDS = 200_000;

/** FNV-1a over `s`, continuing from `h` (the state after a prefix); not yet made unsigned. */
function fnv1a(s: string, h = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

const FNV_OFFSET = 0x811c9dc5;
/** The hash states after each feature's prefix: the word `w:`, its concept `c:`, a trigram `g:`. */
const W_PREFIX = fnv1a('w:');
const C_PREFIX = fnv1a('c:');
const G_PREFIX = fnv1a('g:');

const SYNONYMS: string[][] = [
  [
    'auth',
    'authentication',
    'authenticate',
    'login',
    'logon',
    'signin',
    'credential',
    'credentials',
    'oauth',
    'token',
    'jwt',
    'session',
  ],
  ['authorization', 'authorize', 'permission', 'permissions', 'role', 'roles', 'acl', 'access'],
  ['db', 'database', 'sql', 'query', 'queries', 'table', 'orm', 'repository', 'persistence', 'storage', 'store'],
  ['http', 'request', 'fetch', 'api', 'rest', 'endpoint', 'client', 'axios', 'network', 'urlsession'],
  ['error', 'errors', 'exception', 'exceptions', 'throw', 'catch', 'failure', 'fail', 'handling', 'result'],
  ['retry', 'retries', 'backoff', 'resilience', 'timeout', 'reconnect'],
  ['log', 'logs', 'logger', 'logging', 'trace', 'tracing', 'telemetry', 'metrics', 'observability'],
  ['test', 'tests', 'testing', 'spec', 'unit', 'mock', 'stub', 'fixture', 'assert', 'expect'],
  ['config', 'configuration', 'settings', 'options', 'env', 'environment', 'preferences'],
  ['cache', 'caching', 'memoize', 'memo', 'lru'],
  [
    'async',
    'await',
    'promise',
    'future',
    'concurrency',
    'concurrent',
    'thread',
    'threads',
    'dispatch',
    'queue',
    'task',
    'coroutine',
  ],
  ['ui', 'view', 'views', 'component', 'components', 'widget', 'screen', 'layout', 'render', 'viewcontroller'],
  ['state', 'store', 'redux', 'reducer', 'observable', 'binding', 'viewmodel'],
  ['event', 'events', 'emit', 'emitter', 'listener', 'subscribe', 'publish', 'notification', 'observer', 'callback'],
  ['di', 'inject', 'injection', 'dependency', 'container', 'provider', 'factory'],
  ['validate', 'validation', 'validator', 'schema', 'sanitize', 'check'],
  ['parse', 'parser', 'parsing', 'serialize', 'serialization', 'deserialize', 'json', 'decode', 'encode', 'codable'],
  ['date', 'time', 'timestamp', 'datetime', 'timezone', 'clock'],
  ['string', 'text', 'format', 'formatting', 'localize', 'localization', 'i18n', 'l10n', 'translation'],
  ['file', 'files', 'path', 'filesystem', 'fs', 'directory', 'folder'],
  ['security', 'secure', 'secret', 'secrets', 'encrypt', 'encryption', 'hash', 'password', 'xss', 'csrf', 'injection'],
  ['performance', 'perf', 'fast', 'slow', 'latency', 'optimize', 'optimization', 'benchmark'],
  [
    'module',
    'modules',
    'package',
    'packages',
    'import',
    'dependency',
    'dependencies',
    'target',
    'layer',
    'architecture',
  ],
  ['nav', 'navigation', 'router', 'route', 'routing', 'link', 'deeplink'],
  ['memory', 'leak', 'retain', 'weak', 'dispose', 'cleanup', 'release', 'deinit'],
  ['style', 'naming', 'convention', 'conventions', 'lint', 'format', 'prettier', 'eslint'],
  ['user', 'users', 'account', 'profile', 'member', 'customer'],
];

const CONCEPTS = new Map<string, string>();
SYNONYMS.forEach((group, i) => {
  for (const w of group) {
    if (!CONCEPTS.has(w)) CONCEPTS.set(w, String(i));
    if (!CONCEPTS.has(stem(w))) CONCEPTS.set(stem(w), String(i));
  }
});

/** int8 storage: 1 byte per dimension, enough for ranking by dot product. */
export function quantize(v: Float32Array): Uint8Array {
  return quantizeInto(v, new Uint8Array(v.length));
}

/** `quantize` into `out` (as long as `v`), for a caller that keeps many vectors in one buffer. */
export function quantizeInto(v: Float32Array, out: Uint8Array): Uint8Array {
  // The bytes of an Int8Array of the rounded values, written directly as their two's complement.
  for (let i = 0; i < v.length; i++) {
    const q = Math.round(v[i] * 127);
    out[i] = (q > 127 ? 127 : q < -127 ? -127 : q) & 0xff;
  }
  return out;
}
