// Skills as MCP resources and prompts, besides the tools: clients that attach resources (or offer
// prompts as slash commands) get the same progressive loading, and hear when skills change on disk.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode as McpErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  type Prompt,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import {
  findSection,
  level2Of,
  listSkillResources,
  mimeTypeOf,
  readSkillFile,
  type Skill,
  skillRegistry,
} from '../core/catalog/adapters';
import { isAutoSnippetError } from '../core/ground/kernel/errors';
import { closestNames } from '../core/ground/kernel/names';
import type { Workspace } from '../core/ground/workspace';

export const SKILL_SCHEME = 'skill://';
/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
/** Resources per page of resources/list, and prompts per page of prompts/list. */
const PAGE_SIZE = 500;
const PROMPT_PAGE_SIZE = 100;

export function skillUri(name: string, ...parts: string[]): string {
  return SKILL_SCHEME + [name, ...parts].map((p) => p.split('/').map(encodeURIComponent).join('/')).join('/');
}

/**
 * Registers skills on an MCP server: resources (`skill://<name>/SKILL.md` is level 2, each chunk
 * `skill://<name>/chunks/<id>`, each file `skill://<name>/<path>`, sections through a template),
 * one prompt per skill, and list-changed notifications when skills change on disk.
 * Returns the function that stops the notifications.
 */
export function registerSkillsOnServer(server: Server, ws: Workspace): () => void {
  const registry = skillRegistry(ws);
  // Watching starts with the client's first list: a client that never listed has no list to go stale,
  // and the server starts without reading a single SKILL.md (1,000 skills took seconds before tools/list).
  let subscription: { dispose(): void } | undefined;
  const watch = () => {
    subscription ??= registry.onDidChange(() => {
      void server.sendResourceListChanged().catch(() => undefined);
      void server.sendPromptListChanged().catch(() => undefined);
    });
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    watch();
    const { items, nextCursor } = pageOf(registry.list().flatMap(resourcesOf), request.params?.cursor, PAGE_SIZE);
    return { resources: items, ...(nextCursor ? { nextCursor } : {}) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'skill://{name}/SKILL.md',
        name: 'skill',
        title: 'Skill instructions (level 2)',
        description: "A skill's instructions without its chunks, with the chunks and files it offers.",
        mimeType: 'text/markdown',
      },
      {
        uriTemplate: 'skill://{name}/sections/{section}',
        name: 'skill-section',
        title: 'One section of a skill',
        description: 'One ## section of a skill, by heading or its lowercase-hyphenated form.',
        mimeType: 'text/markdown',
      },
      {
        uriTemplate: 'skill://{name}/chunks/{chunk}',
        name: 'skill-chunk',
        title: 'A chunk of a skill (level 3)',
        description: 'One <chunk> of a skill: worked examples, troubleshooting…',
        mimeType: 'text/markdown',
      },
      {
        uriTemplate: 'skill://{name}/{+path}',
        name: 'skill-file',
        title: 'A file of a skill',
        description: "A file of the skill's folder (references/, scripts/, assets/).",
        mimeType: 'application/octet-stream',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const uri = request.params.uri;
    try {
      return { contents: [readSkillUri(ws, uri)] };
    } catch (e) {
      if (e instanceof McpError) throw e;
      if (isAutoSnippetError(e)) {
        throw new McpError(
          e.code === 'PATH_OUTSIDE_SKILL' ? McpErrorCode.InvalidParams : RESOURCE_NOT_FOUND,
          `${e.message}${e.hint ? ` ${e.hint}` : ''}`,
          { uri, code: e.code, ...e.details },
        );
      }
      throw e;
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    watch();
    const { items, nextCursor } = pageOf(registry.list(), request.params?.cursor, PROMPT_PAGE_SIZE);
    return { prompts: items.map(promptOf), ...(nextCursor ? { nextCursor } : {}) };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const skill = registry.get(request.params.name);
    if (!skill) {
      const closest = closestNames(request.params.name.slice(0, 128), registry.list().map((s) => s.name), 5);
      throw new McpError(
        McpErrorCode.InvalidParams,
        `No skill prompt named "${request.params.name}".${
          closest.length ? ` Closest: ${closest.join(', ')}.` : ' There are no skills.'
        }`,
      );
    }
    const section = request.params.arguments?.section?.trim() || undefined;
    const task = request.params.arguments?.task?.trim();
    let text: string;
    try {
      text = level2Text(skill, section);
    } catch (e) {
      if (isAutoSnippetError(e)) {
        throw new McpError(McpErrorCode.InvalidParams, `${e.message}${e.hint ? ` ${e.hint}` : ''}`);
      }
      throw e;
    }
    return {
      description: skill.description,
      messages: [{ role: 'user', content: { type: 'text', text: task ? `${text}\n\n---\nTask: ${task}` : text } }],
    };
  });

  return () => subscription?.dispose();
}

function promptOf(s: Skill): Prompt {
  return {
    name: s.name,
    title: s.name,
    description: s.description,
    arguments: [
      {
        name: 'section',
        description: `Load only this ## section${
          s.sections.length ? ` (${s.sections.map((x) => x.heading).join(' | ')})` : ''
        }.`,
        required: false,
      },
      { name: 'task', description: 'The task to do with this skill.', required: false },
    ],
  };
}

/** One page of a list: the cursor is the offset of its first item. */
function pageOf<T>(all: readonly T[], cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  const start = cursor ? Number(cursor) : 0;
  if (!Number.isInteger(start) || start < 0) {
    throw new McpError(McpErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
  }
  return {
    items: all.slice(start, start + size),
    ...(start + size < all.length ? { nextCursor: String(start + size) } : {}),
  };
}

function resourcesOf(skill: Skill): Resource[] {
  const out: Resource[] = [
    {
      uri: skillUri(skill.name, 'SKILL.md'),
      name: `${skill.name}/SKILL.md`,
      title: skill.name,
      description: skill.description,
      mimeType: 'text/markdown',
    },
  ];
  for (const c of skill.chunks) {
    out.push({
      uri: skillUri(skill.name, 'chunks', c.id),
      name: `${skill.name}/chunks/${c.id}`,
      title: `${skill.name}: ${c.id}`,
      description: c.description,
      mimeType: 'text/markdown',
    });
  }
  for (const r of listSkillResources(skill.dir)) {
    out.push({
      uri: skillUri(skill.name, r.path),
      name: `${skill.name}/${r.path}`,
      description: `A ${r.kind === 'other' ? 'file' : r.kind} of skill ${skill.name}`,
      mimeType: mimeTypeOf(r.path),
      size: r.size,
    });
  }
  return out;
}

/** Reads one `skill://` URI. */
export function readSkillUri(ws: Workspace, uri: string): ReadResourceResult['contents'][number] {
  if (!uri.startsWith(SKILL_SCHEME)) {
    throw new McpError(
      McpErrorCode.InvalidParams,
      `Not a skill URI: ${uri}. Skill URIs look like skill://<name>/SKILL.md.`,
    );
  }
  const parts = uri.slice(SKILL_SCHEME.length).split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      throw new McpError(McpErrorCode.InvalidParams, `Badly encoded URI: ${uri}`);
    }
  });
  const [name, ...rest] = parts;
  const skill = skillRegistry(ws).require(name);
  const relPath = rest.join('/');
  if (relPath === '' || relPath === 'SKILL.md') return { uri, mimeType: 'text/markdown', text: level2Text(skill) };
  if (rest[0] === 'chunks' && rest.length === 2) {
    const chunk = skill.chunks.find((c) => c.id === rest[1]);
    if (chunk) return { uri, mimeType: 'text/markdown', text: chunk.content };
    if (!listSkillResources(skill.dir).some((r) => r.path === relPath)) {
      throw new McpError(
        RESOURCE_NOT_FOUND,
        `Skill "${skill.name}" has no chunk "${rest[1]}". Its chunks: ${
          skill.chunks.map((c) => c.id).join(', ') || '(none)'
        }.`,
        { uri },
      );
    }
  }
  if (rest[0] === 'sections' && rest.length === 2 && findSection(skill, rest[1])) {
    return { uri, mimeType: 'text/markdown', text: level2Text(skill, rest[1]) };
  }
  const file = readSkillFile(skill, relPath, { allowBinary: true });
  return file.binary
    ? { uri, mimeType: file.mimeType, blob: file.base64 ?? '' }
    : { uri, mimeType: file.mimeType, text: file.text ?? '' };
}

/** Level 2 as MCP clients see it: the instructions, then chunk and file URIs to read next. */
function level2Text(skill: Skill, section?: string): string {
  const view = level2Of(skill, { section });
  const out = [view.content];
  if (view.chunks.length) {
    out.push('', 'Chunks of this skill, to read when needed:');
    for (const c of view.chunks) out.push(`- ${skillUri(skill.name, 'chunks', c.id)}: ${c.description}`);
  }
  if (view.otherSections.length) {
    out.push('', `Other sections: ${view.otherSections.map((h) => skillUri(skill.name, 'sections', h)).join(' ')}`);
  }
  const files = listSkillResources(skill.dir);
  if (files.length) {
    out.push(
      '',
      `Files: ${files.slice(0, 30).map((r) => skillUri(skill.name, r.path)).join(' ')}${files.length > 30 ? ' …' : ''}`,
    );
  }
  if (skill.related.length) {
    out.push('', `Related skills: ${skill.related.map((n) => skillUri(n, 'SKILL.md')).join(' ')}`);
  }
  return out.join('\n');
}
