/**
 * What one answer of the server is worth: a registry error code, a result that matches the tool's
 * outputSchema and fits its bound, a JSON-RPC or HTTP refusal the protocol defines, or a failure
 * (crash, hang, an unknown code, a result over its bound, outside text in the answer).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { isErrorCode } from '../../../src/core/ground/kernel/errors';
import type { JsonSchema } from '../../../src/core/ground/kernel/result';
import type { FuzzCall, ToolSpec } from './generate';
import type { Outcome } from './lane';

/**
 * Issue 10's "hang over 5 s": a call the server spends more than this on (its own CPU time), or one it
 * does not answer at all. Wall-clock time over it is counted apart (`slow`): on a machine shared by
 * many processes, a call that needs 1 s of CPU can take 10 s to answer.
 */
export const HANG_MS = 5000;
/** The bound of an answer that names no tool of the catalog (UNKNOWN_TOOL). */
export const UNKNOWN_TOOL_BOUND = 4000;

export type AnswerKind =
  | 'registry-error'
  | 'valid-result'
  | 'rpc-invalid-params'
  | 'rpc-too-large'
  | 'http-413'
  | 'bad';

export interface Verdict {
  kind: AnswerKind;
  /** Set when the answer is a result envelope. */
  envelope?: { ok: boolean; tool: string; data?: unknown; error?: { code: string; message: string } };
  crash: boolean;
  hang: boolean;
  /** Answered after more than HANG_MS of wall-clock time. */
  slow: boolean;
  overBound: boolean;
  /** A canary (text that exists only outside the workspace) is in the answer. */
  escape: boolean;
  /** Why the answer is not acceptable, one line each (empty when it is). */
  problems: string[];
}

export class Judge {
  private readonly ajv = new Ajv({ strict: false, allErrors: false });
  private readonly outputValidators = new Map<string, ValidateFunction>();

  constructor(
    private readonly specs: Map<string, ToolSpec>,
    outputSchemas: Map<string, JsonSchema>,
    private readonly canaries: readonly string[],
  ) {
    for (const [name, schema] of outputSchemas) this.outputValidators.set(name, this.ajv.compile(schema));
  }

  judge(call: FuzzCall, outcome: Outcome, bytesSent: number): Verdict {
    const v: Verdict = {
      kind: 'bad',
      crash: false,
      hang: false,
      slow: outcome.ms > HANG_MS,
      overBound: false,
      escape: false,
      problems: [],
    };
    const busyMs = outcome.cpuMs ?? outcome.ms;
    if (outcome.kind !== 'timeout' && busyMs > HANG_MS) {
      v.hang = true;
      v.problems.push(
        `the server spent ${busyMs} ms ${
          outcome.cpuMs === undefined ? '' : 'of CPU '
        }on it (over ${HANG_MS} ms; answered after ${outcome.ms} ms)`,
      );
    }
    switch (outcome.kind) {
      case 'closed':
        v.crash = true;
        v.problems.push(`the server went away: ${outcome.message}`);
        return v;
      case 'timeout':
        v.hang = true;
        v.problems.push(`no answer within ${outcome.ms} ms`);
        return v;
      case 'client-error':
        v.problems.push(`the client failed: ${outcome.message.slice(0, 300)}`);
        return v;
      case 'http-status':
        // The only refusal HTTP may give a well-formed call: a body over the server's limit.
        if (outcome.status === 413 && bytesSent > 4 * 1024 * 1024) v.kind = 'http-413';
        else v.problems.push(`HTTP ${outcome.status}: ${outcome.message.slice(0, 300)}`);
        return v;
      case 'rpc-error': {
        this.checkCanaries(outcome.message, v);
        // -32602 is the protocol's answer to `arguments` that are not an object (the SDK checks it before any tool runs).
        const nonObject = typeof call.args !== 'object' || call.args === null || Array.isArray(call.args);
        if (outcome.code === -32602 && nonObject) v.kind = 'rpc-invalid-params';
        // -32600 is the stdio transport's answer to a message over its 10 MiB limit (it is never parsed).
        else if (outcome.code === -32600 && bytesSent > 10 * 1024 * 1024 && /Message too large/.test(outcome.message)) {
          v.kind = 'rpc-too-large';
        } else v.problems.push(`JSON-RPC error ${outcome.code}: ${outcome.message.slice(0, 300)}`);
        if (outcome.message.length > UNKNOWN_TOOL_BOUND) {
          v.overBound = true;
          v.problems.push(`a JSON-RPC error of ${outcome.message.length} characters`);
        }
        return v;
      }
      case 'result':
        this.judgeResult(
          outcome.result as {
            content?: { type: string; text?: string }[];
            structuredContent?: unknown;
            isError?: boolean;
          },
          v,
        );
        return v;
    }
  }

  private judgeResult(
    result: { content?: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean },
    v: Verdict,
  ): void {
    const parts = result.content ?? [];
    if (parts.length !== 1 || parts[0].type !== 'text' || typeof parts[0].text !== 'string') {
      v.problems.push(`expected one text part, got ${JSON.stringify(parts).slice(0, 200)}`);
      return;
    }
    const text = parts[0].text;
    this.checkCanaries(text, v);
    let envelope: Verdict['envelope'];
    let textIsJson = true;
    try {
      envelope = JSON.parse(text);
    } catch {
      textIsJson = false;
    }
    // A tool may declare a text form for models (load_skill answers in Markdown): the envelope is then
    // the structured content, and only a successful answer may use that form.
    if (!textIsJson) {
      const structured = result.structuredContent as Verdict['envelope'];
      if (!structured || typeof structured !== 'object' || structured.ok !== true) {
        v.problems.push(`the text is not JSON: ${text.slice(0, 200)}`);
        return;
      }
      envelope = structured;
      this.checkCanaries(JSON.stringify(structured), v);
    }
    if (!envelope || typeof envelope !== 'object' || typeof envelope.ok !== 'boolean') {
      v.problems.push(`not a result envelope: ${text.slice(0, 200)}`);
      return;
    }
    v.envelope = envelope;
    if (textIsJson && JSON.stringify(result.structuredContent) !== text) {
      v.problems.push('structuredContent differs from the text');
    }
    if (Boolean(result.isError) === envelope.ok) {
      v.problems.push(`isError is ${result.isError} on an answer with ok: ${envelope.ok}`);
    }
    const spec = this.specs.get(envelope.tool);
    if (envelope.ok) {
      if (!spec) {
        v.problems.push(`a successful answer from "${envelope.tool}", which is no tool`);
        return;
      }
      const size = JSON.stringify(envelope.data)?.length ?? 0;
      if (size > spec.maxOutputChars) {
        v.overBound = true;
        v.problems.push(`data of ${size} characters, over the bound of ${spec.maxOutputChars}`);
      }
      const validate = this.outputValidators.get(envelope.tool);
      if (validate && !validate(envelope)) {
        v.problems.push(
          `the result does not match the outputSchema: ${this.ajv.errorsText(validate.errors).slice(0, 300)}`,
        );
      } else if (!validate && spec.access !== 'review') {
        v.problems.push(`no outputSchema was published for ${envelope.tool}`);
      }
      if (v.problems.length === 0 || (v.hang && v.problems.length === 1)) v.kind = 'valid-result';
      return;
    }
    const code = envelope.error?.code;
    const bound = spec ? spec.maxOutputChars : UNKNOWN_TOOL_BOUND;
    if (text.length > bound) {
      v.overBound = true;
      v.problems.push(`an error answer of ${text.length} characters, over the bound of ${bound}`);
    }
    if (typeof code !== 'string' || !isErrorCode(code)) {
      v.problems.push(`error code ${JSON.stringify(code)} is not in the registry`);
    } else if (code === 'INTERNAL') v.problems.push(`INTERNAL: ${envelope.error?.message.slice(0, 300)}`);
    if (typeof envelope.error?.message !== 'string' || envelope.error.message.length === 0) {
      v.problems.push('an error without a message');
    }
    if (v.problems.length === 0 || (v.hang && v.problems.length === 1)) v.kind = 'registry-error';
  }

  private checkCanaries(text: string, v: Verdict): void {
    const seen = this.canaries.find((c) => text.includes(c));
    if (seen) {
      v.escape = true;
      v.problems.push(`the answer holds text from outside the workspace (${seen.slice(0, 40)})`);
    }
  }
}

/** A call as one line for a failure report: long strings shown by their length and first characters. */
export function describeCall(call: FuzzCall): string {
  const shorten = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      return value.length > 120 ? `<${value.length} chars: ${JSON.stringify(value.slice(0, 40))}…>` : value;
    }
    if (depth > 4) return '<deeper>';
    if (Array.isArray(value)) {
      return value.length > 8
        ? [...value.slice(0, 8).map((x) => shorten(x, depth + 1)), `<${value.length - 8} more>`]
        : value.map((x) => shorten(x, depth + 1));
    }
    if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      const shown = entries.slice(0, 12).map((
        [k, x],
      ) => [k.length > 60 ? `${k.slice(0, 20)}…(${k.length})` : k, shorten(x, depth + 1)]);
      if (entries.length > 12) shown.push(['…', `${entries.length - 12} more keys`]);
      return Object.fromEntries(shown);
    }
    return value;
  };
  const name = call.name.length > 80
    ? `<${call.name.length} chars: ${JSON.stringify(call.name.slice(0, 40))}…>`
    : JSON.stringify(call.name);
  return `${name} ${JSON.stringify(shorten(call.args, 0))} [${call.kinds.join(',')}]`;
}
