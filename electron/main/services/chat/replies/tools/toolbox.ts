import type { Tool } from 'ollama';
import { WEB_TOOLS, type ToolSource } from '@shared/contract/chat-conversation';
import type { McpContent, McpServerStatus } from '@shared/contract/mcp';
import { AppError, toAppError } from '@shared/errors';
import type { McpService } from '../../../mcp/manager';
import { runWebTool, webToolDefs } from './web-tools';

/** A tool as offered to a model, and where it runs. */
interface OfferedTool {
  /** The name the model sees: the tool's own, or `server_tool` when two sources share one. */
  name: string;
  source: string;
  /** The tool's name at its source. */
  tool: string;
  def: Tool;
}

/** What a tool answered, ready for the model (text) and the user (text and images). */
interface ToolOutput {
  content: string;
  images?: string[];
  isError: boolean;
}

export interface ToolboxDeps {
  mcp: () => Promise<McpService>;
  web: () => { apiKey: string | undefined; base: string; fetch: typeof fetch };
}

/** What a model may receive of one result: tools can return far more than a context holds. */
const MODEL_RESULT_MAX = 32_000;

const WEB_LABEL = 'Web search and fetch (ollama.com)';

/** OpenAI-compatible APIs take function names of [a-zA-Z0-9_-], at most 64 long. */
const safeName = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';

/** The text of an MCP result: text and resources as they are, binaries named (images also go to the user). */
function mcpText(content: McpContent[]): { text: string; images: string[] } {
  const parts: string[] = [];
  const images: string[] = [];
  for (const c of content) {
    if (c.type === 'text' || c.type === 'other') parts.push(c.text);
    else if (c.type === 'resource') parts.push(`[${c.uri}]\n${c.text}`);
    else if (c.type === 'image') {
      images.push(c.data);
      parts.push(`[image ${c.mimeType}, shown to the user]`);
    } else parts.push(`[audio ${c.mimeType}]`);
  }
  return { text: parts.join('\n'), images };
}

const clipForModel = (t: string) =>
  t.length <= MODEL_RESULT_MAX
    ? t
    : `${t.slice(0, MODEL_RESULT_MAX)}\n… [cut by HubDesk: ${t.length} characters; the first ${MODEL_RESULT_MAX} are given]`;

/** Every source the app knows, for the conversation settings; stopped servers are started so their tools show. */
export async function listToolSources(deps: ToolboxDeps): Promise<ToolSource[]> {
  const web: ToolSource = {
    id: WEB_TOOLS,
    label: WEB_LABEL,
    kind: 'builtin',
    state: 'ready',
    tools: webToolDefs.map((t) => ({ name: t.function.name ?? '', description: t.function.description })),
  };
  if (!deps.web().apiKey) web.message = 'Needs an ollama.com API key (Settings → Ollama API key).';
  const mcp = await deps.mcp();
  const servers = mcp.servers(true).servers.map((s): ToolSource => ({
    id: s.name,
    label: s.serverInfo ? `${s.name} (${s.serverInfo.name} ${s.serverInfo.version})` : s.name,
    kind: 'mcp',
    state: s.state,
    ...(s.message ? { message: s.message } : {}),
    tools: s.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) })),
  }));
  return [web, ...servers];
}

/**
 * The tools one reply offers: those of the conversation's sources. MCP servers are started on demand; one that
 * does not start is left out with a problem the reply shows, the others are unaffected.
 */
export class Toolbox {
  private constructor(
    readonly tools: OfferedTool[],
    readonly problems: string[],
    private readonly deps: ToolboxDeps,
  ) {}

  static async open(sources: readonly string[], deps: ToolboxDeps): Promise<Toolbox> {
    const found: Omit<OfferedTool, 'name'>[] = [];
    const problems: string[] = [];
    const mcpNames = sources.filter((s) => s !== WEB_TOOLS);
    if (sources.includes(WEB_TOOLS))
      for (const def of webToolDefs) found.push({ source: WEB_TOOLS, tool: def.function.name ?? '', def });
    if (mcpNames.length) {
      const mcp = await deps.mcp();
      const known = new Set(mcp.servers().servers.map((s) => s.name));
      const started = await Promise.all(
        mcpNames.map(async (name): Promise<McpServerStatus | string> => {
          if (!known.has(name)) return `The MCP server "${name}" is no longer in mcp.json.`;
          try {
            return await mcp.start(name);
          } catch (e) {
            return `The MCP server "${name}" did not start: ${toAppError(e).message}`;
          }
        }),
      );
      for (const s of started) {
        if (typeof s === 'string') problems.push(s);
        else if (s.state !== 'ready')
          problems.push(`The MCP server "${s.name}" is ${s.state}${s.message ? `: ${s.message}` : ''}.`);
        else
          for (const t of s.tools)
            found.push({
              source: s.name,
              tool: t.name,
              def: {
                type: 'function',
                function: { name: t.name, description: t.description ?? t.title ?? '', parameters: t.inputSchema },
              } as Tool,
            });
      }
    }
    // A name two sources share is prefixed with its source, so the model can tell them apart.
    const count = new Map<string, number>();
    for (const f of found) count.set(safeName(f.tool), (count.get(safeName(f.tool)) ?? 0) + 1);
    const tools = found.map((f) => {
      const plain = safeName(f.tool);
      const name = count.get(plain)! > 1 ? safeName(`${f.source}_${f.tool}`) : plain;
      return { ...f, name, def: { ...f.def, function: { ...f.def.function, name } } };
    });
    if (problems.length && tools.length) problems.push('The tools of the other sources were offered.');
    return new Toolbox(tools, problems, deps);
  }

  get defs(): Tool[] {
    return this.tools.map((t) => t.def);
  }

  find(name: string): OfferedTool | undefined {
    return this.tools.find((t) => t.name === name);
  }

  /** An unknown name, as the model gets it back. */
  unknown(name: string): AppError {
    const names = this.tools.map((t) => t.name).join(', ');
    return new AppError('invalid_input', `There is no tool named "${name}". The tools offered are: ${names}.`);
  }

  /** Runs one call; the tool's own errors come back as `isError` results, the app's (timeout, crash) as throws. */
  async run(
    t: OfferedTool,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolOutput> {
    if (t.source === WEB_TOOLS) {
      const content = await runWebTool(t.tool, args, { ...this.deps.web(), signal: opts.signal });
      return { content, isError: false };
    }
    const mcp = await this.deps.mcp();
    const res = await mcp.callTool(t.source, t.tool, args, opts);
    const { text, images } = mcpText(res.content);
    return {
      content: clipForModel(text || (res.isError ? 'The tool reported an error without text.' : '(no output)')),
      isError: res.isError,
      ...(images.length ? { images: images.slice(0, 8) } : {}),
    };
  }
}
