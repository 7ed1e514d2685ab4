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
   * A word's features (dimensions and signed weights at term frequency 1), computed once per word:
   * recipes share most of their vocabulary, and hashing every feature of every word again was most
   * of the time embedding took while indexing. Stopwords and one-letter words map to NO_FEATURES.
   */
  private readonly features = new Map<string, Features>();

  embedOne(text: string): Float32Array {
    return this.embedTokens(tokenize(text));
  }

  /** The vector of a text already split by `tokenize` (so a caller that analyses it too splits it once). */
  embedTokens(tokens: readonly string[]): Float32Array {
    const v = new Float32Array(this.dimensions);
    if (this.features.size >= MAX_CACHED_WORDS) this.features.clear(); // between texts: a text's words stay one record each
    // Term frequencies in order of first occurrence, counted on the feature records themselves.
    const epoch = ++this.epoch;
    const seen: Features[] = [];
    for (const word of tokens) {
      const f = this.features.get(word) ?? this.featuresOf(word);
      if (f === NO_FEATURES) continue;
      if (f.epoch !== epoch) {
        f.epoch = epoch;
        f.tf = 0;
        seen.push(f);
      }
      f.tf++;
    }
    for (const f of seen) {
      const w = 1 + Math.log(f.tf);
      const { dims, weights } = f;
      for (let i = 0; i < dims.length; i++) v[dims[i]] += w * weights[i];
    }
    let norm = 0;
    for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
    norm = Math.sqrt(norm);
    if (norm > 0) { for (let i = 0; i < v.length; i++) v[i] /= norm; }
    return v;
  }

  private epoch = 0;

  /** The word itself, its concept, its trigrams. */
  private featuresOf(word: string): Features {
    let f = NO_FEATURES;
    if (!isStopword(word) && word.length >= 2) {
      const dims: number[] = [];
      const weights: number[] = [];
      const add = (feature: string, weight: number) => {
        const h = fnv1a(feature);
        dims.push(h % this.dimensions);
        weights.push(h & 0x80000000 ? -weight : weight);
      };
      add('w:' + word, 1);
      const concept = CONCEPTS.get(word) ?? CONCEPTS.get(stem(word));
      if (concept) add('c:' + concept, 1);
      const grams = trigrams(word);
      const gw = 0.6 / Math.sqrt(grams.length || 1);
      for (const g of grams) add('g:' + g, gw);
      f = { dims: Int32Array.from(dims), weights: Float64Array.from(weights), epoch: 0, tf: 0 };
    }
    this.features.set(word, f);
    return f;
  }
}

interface Features {
  dims: Int32Array;
  weights: Float64Array;
  /** The last `embedTokens` call that met the word, and how often it did. */
  epoch: number;
  tf: number;
}

const NO_FEATURES: Features = { dims: new Int32Array(0), weights: new Float64Array(0), epoch: -1, tf: 0 };

/** Words whose features are kept: a large vocabulary's worth (each takes a few dozen numbers). */
const MAX_CACHED_WORDS = 200_000;

function trigrams(word: string): string[] {
  if (word.length <= 3) return [word];
  const padded = `^${word}$`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3));
  return out;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

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
  const out = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = Math.max(-127, Math.min(127, Math.round(v[i] * 127)));
  return new Uint8Array(out.buffer);
}
