import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AccessClass, Actor, Channel } from '../../ground/kernel/actors';
import type { ToolErrorBody, ToolResult } from '../../ground/kernel/result';
import type { Workspace } from '../../ground/workspace';
import { AuditLog, digestArgs, newAuditId } from './audit';

/** What the Gateway reads of a call: who makes it, through which channel (a catalog's ToolContext is one). */
export interface Caller {
  actor: Actor;
  channel: Channel;
}

/** What the Gateway reads of a tool: its name and the declarations its rules check (a ToolDefinition is one). */
export interface GuardedTool {
  name: string;
  access: AccessClass;
  destructive?: boolean;
  batch?: { field: string; max: number };
  derivedWrite?: boolean;
}

/** The rules every write obeys, whichever channel it came through. */
export const constitution = {
  /** `review` tools (approve, publish, deprecate, delete, install) are for people only. */
  reviewActors: ['human'] as const,
  /** Destructive tools need `confirm: true`, from people too. */
  confirmField: 'confirm',
};

/**
 * actor → permission → constitution → audit. The decision is written to the audit log before the
 * write runs; if that fails, the write is refused: nothing passes unchecked.
 */
export class Gateway {
  constructor(readonly audit: AuditLog) {}

  static for(ws: Workspace): Gateway {
    return ws.service(
      'gateway',
      (w) => new Gateway(new AuditLog(path.join(w.dataDir, 'audit'), () => w.ensureDataDir())),
    );
  }

  /**
   * Refuses an agent's call to a people-only tool (`action`) and audits it, whatever its arguments:
   * malformed ones included. `requested` is the name the agent used when it was not the tool's own.
   */
  async refuse(action: string, rawArgs: unknown, ctx: Caller, requested?: string): Promise<ToolResult> {
    const error = permissionDenied(action, ctx);
    const args = typeof rawArgs === 'object' && rawArgs !== null && !Array.isArray(rawArgs)
      ? (rawArgs as Record<string, unknown>)
      : {};
    try {
      await this.audit.append({
        id: newAuditId(),
        phase: 'decision',
        time: new Date().toISOString(),
        actor: ctx.actor,
        channel: ctx.channel,
        action,
        ...(requested !== undefined ? { requested: requested.slice(0, 200) } : {}),
        resource: resourceOf(args),
        argsDigest: digestArgs(rawArgs),
        decision: 'denied',
        result: 'denied',
        error: error.code,
        durationMs: 0,
      });
    } catch {
      // Refused either way; a refusal that could not be recorded is still a refusal.
    }
    return { ok: false, tool: action, error };
  }

  async run(
    tool: GuardedTool,
    input: Record<string, unknown>,
    ctx: Caller,
    execute: () => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const started = performance.now();
    const id = newAuditId();
    const base = {
      id,
      time: new Date().toISOString(),
      actor: ctx.actor,
      channel: ctx.channel,
      action: tool.name,
      resource: resourceOf(input),
      argsDigest: digestArgs(input),
    };
    const refusal = check(tool, input, ctx);
    const deferrable = tool.derivedWrite === true;
    try {
      await this.audit.append(
        {
          ...base,
          phase: 'decision',
          decision: refusal ? 'denied' : 'allowed',
          ...(refusal ? { result: 'denied', error: refusal.code, durationMs: 0 } : {}),
        },
        { deferrable },
      );
    } catch (e) {
      return {
        ok: false,
        tool: tool.name,
        error: {
          code: 'GATEWAY_UNAVAILABLE',
          message: `The write was refused because the Gateway could not record it in the audit log: ${
            (e as Error).message
          }`,
          hint: `Check that ${this.audit.dir} is writable, then try again.`,
        },
      };
    }
    if (refusal) return { ok: false, tool: tool.name, error: refusal };

    const result = await execute();
    await this.audit
      .append(
        {
          id,
          phase: 'outcome',
          result: result.ok ? 'ok' : 'error',
          ...(result.ok ? {} : { error: result.error.code }),
          durationMs: Math.round(performance.now() - started),
        },
        { deferrable },
      )
      .catch(() => undefined); // the decision is on record; a lost outcome line must not undo a finished write
    return result;
  }
}

function check(tool: GuardedTool, input: Record<string, unknown>, ctx: Caller): ToolErrorBody | undefined {
  if (tool.access === 'review' && !(constitution.reviewActors as readonly string[]).includes(ctx.actor)) {
    return permissionDenied(tool.name, ctx);
  }
  if (tool.destructive && input[constitution.confirmField] !== true) {
    return {
      code: 'CONFIRMATION_REQUIRED',
      message: `${tool.name} cannot be undone and needs an explicit confirmation.`,
      hint: 'Call it again with confirm: true once the person has confirmed.',
      field: constitution.confirmField,
    };
  }
  if (tool.batch) {
    const items = input[tool.batch.field];
    if (Array.isArray(items) && items.length > tool.batch.max) {
      return {
        code: 'BATCH_TOO_LARGE',
        message: `${tool.name} takes at most ${tool.batch.max} items in ${tool.batch.field}; got ${items.length}.`,
        hint: `Split the batch into calls of ${tool.batch.max} or fewer.`,
        field: tool.batch.field,
      };
    }
  }
  return undefined;
}

function permissionDenied(action: string, ctx: Caller): ToolErrorBody {
  return {
    code: 'PERMISSION_DENIED',
    message: `${action} changes reviewed knowledge and is for people only; ${ctx.actor} may not run it.`,
    hint: 'Propose the change instead (for example submit_candidate); a person approves it in VS Code or with the CLI.',
  };
}

function resourceOf(input: Record<string, unknown>): string | undefined {
  for (const k of ['id', 'candidateId', 'recipeId', 'name', 'skill', 'path', 'source', 'title']) {
    if (typeof input[k] === 'string') return `${k}:${input[k] as string}`.slice(0, 200);
  }
  return undefined;
}
