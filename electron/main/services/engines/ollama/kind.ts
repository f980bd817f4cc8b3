import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { Snippet } from '@shared/contract/snippets';
import type { AppError } from '@shared/errors';
import type { Turn } from '../../chat/replies/turns';
import type { Logger } from '../../log';
import { untilStopped } from '../../http/until-aborted';
import { ollamaError } from '../../ollama/errors';
import type { OllamaService } from '../../ollama/service';
import { errorText, STREAM_CUT, withAction } from '../reply-action';
import type { EngineKind, EngineRef, Footprint, FootprintRound } from '../types';
import { ollamaOptions, toOllamaMessages, toOpenAIMessages } from '../wire';
import { OllamaEngine } from './engine';

/** Ollama loads a model with this context unless `num_ctx` (the request's or the Modelfile's) says otherwise. */
const DEFAULT_CONTEXT = 4096;
/** Ollama's texts when its model runner process died (killed for memory, crashed on load…). */
const RUNNER_DIED = /runner process has terminated|llama runner|signal: killed|exit status \d|out of memory/i;

const withTag = (n: string) => (n.includes(':') ? n : `${n}:latest`);
const sameModel = (a: string, b: string) => withTag(a).toLowerCase() === withTag(b).toLowerCase();

/** The Ollama server set in Settings: its own API, names with tags, its own context and memory figures. */
export class OllamaKind implements EngineKind {
  readonly backend = 'ollama' as const;
  readonly toolHistoryWithoutTools = true;
  private readonly chat: OllamaEngine;

  constructor(private readonly opts: { ollama: OllamaService; log: Logger }) {
    this.chat = new OllamaEngine(opts);
  }

  engine(): OllamaEngine {
    return this.chat;
  }

  assertReady(): void {}

  server(): string {
    return 'ollama';
  }

  exportName(): string {
    return 'Ollama';
  }

  describe(ref: EngineRef): Promise<{ label: string; names: string[] }> {
    return Promise.resolve({ label: `Ollama · ${ref.model}`, names: [] });
  }

  /**
   * A loaded model's context is the one it answers in. Not loaded, Ollama loads it with the Modelfile's `num_ctx` or
   * its default, never past the trained length: the trained length alone would overflow, and Ollama would cut the
   * start of the prompt (the documents with it).
   */
  async contextSize(ref: EngineRef): Promise<number | undefined> {
    const { ollama } = this.opts;
    // Mostly loaded while a person chats: /api/ps alone answers (show reads the GGUF's header, a load costs far more).
    const ps = await ollama.ps().catch(() => undefined);
    const running = ps?.models.find((m) => sameModel(m.name, ref.model));
    if (running?.context_length) return running.context_length;
    const show = await ollama.show(ref.model);
    const param = /^\s*num_ctx\s+(\d+)/m.exec(show.parameters ?? '');
    const set = param ? Number(param[1]) : DEFAULT_CONTEXT;
    const trained = Object.entries(show.model_info).find(([k]) => k.endsWith('.context_length'))?.[1];
    return typeof trained === 'number' && trained > 0 ? Math.min(trained, set) : set;
  }

  /** A chat with no messages loads the model (Ollama answers `done_reason: "load"`), with the pane's context. */
  async load(ref: EngineRef, contextSize: number | undefined, signal: AbortSignal): Promise<void> {
    const { ollama } = this.opts;
    const host = ollama.host;
    const req = ollama
      .client()
      .chat({
        model: ref.model,
        messages: [],
        stream: false,
        ...(contextSize ? { options: { num_ctx: contextSize } } : {}),
      })
      .catch((e: unknown) => {
        throw ollamaError(e, host);
      });
    await untilStopped(req, signal);
  }

  async footprint(ref: EngineRef, contextSize: number | undefined, round: FootprintRound): Promise<Footprint> {
    const { ollama } = this.opts;
    const [ps, tags] = await Promise.all([
      round.once('ollama.ps', () => ollama.ps().catch(() => undefined)),
      round.once('ollama.tags', () => ollama.list().catch(() => undefined)),
    ]);
    const running = ps?.models.find((r) => sameModel(r.name, ref.model));
    const loaded =
      !!running &&
      (contextSize === undefined || running.context_length === undefined || running.context_length === contextSize);
    const size = loaded ? running.size : tags?.models.find((t) => sameModel(t.name, ref.model))?.size;
    const key = `ollama\n${withTag(ref.model).toLowerCase()}`;
    return { where: 'ollama', engine: 'Ollama', name: ref.model, key, loaded, ...(size ? { bytes: size } : {}) };
  }

  /** Ollama's own clients and curl take its message format; the OpenAI clients (→ /v1) take OpenAI's. */
  async code(meta: ConversationMeta, turns: Turn[]): Promise<{ snippets: Snippet[] }> {
    // The local-server templates (and their template engine) load with the first "Open as code".
    const { renderLocalServerSnippets } = await import('../../snippets/local-server');
    const base = {
      model: meta.model,
      host: this.opts.ollama.host,
      streaming: true,
      options: ollamaOptions(meta.params),
      think: meta.params.think,
    };
    const native = renderLocalServerSnippets({
      ...base,
      messages: toOllamaMessages(turns) as { role: string; content: string }[],
    });
    const openai = renderLocalServerSnippets({
      ...base,
      messages: toOpenAIMessages(turns) as { role: string; content: string }[],
    });
    return {
      snippets: native
        .map((s, i) => (s.client === 'openai' ? openai[i] : s))
        .filter((s) => !s.client.includes('generate')),
    };
  }

  replyError(err: AppError, ctx: { model: string; started: boolean }): AppError {
    if (err.status === 404 && /not found/i.test(err.message))
      return withAction(
        err,
        `${ctx.model} is not on your Ollama server. Pull it, then try again.`,
        { kind: 'pull', model: ctx.model },
        'not_found',
      );
    if (RUNNER_DIED.test(err.message))
      return withAction(
        err,
        `Ollama's runner stopped — often out of memory; try a smaller quant or a shorter context (num_ctx). (${err.message})`,
        { kind: 'retry' },
        'upstream',
      );
    if (STREAM_CUT.test(errorText(err)) || (ctx.started && err.code === 'unavailable'))
      return withAction(
        err,
        ctx.started
          ? 'Ollama stopped answering mid-reply; the partial reply is kept.'
          : 'Ollama stopped answering before the reply began.',
        { kind: 'retry' },
        'unavailable',
      );
    if (err.code === 'unavailable' || err.code === 'timeout') return withAction(err, err.message, { kind: 'retry' });
    return err;
  }

  async embed(model: string, texts: string[]): Promise<number[][]> {
    return (await this.opts.ollama.embed({ model, input: texts })).embeddings;
  }

  embedError(err: AppError, model: string) {
    if (err.status === 404 && /not found/i.test(err.message))
      return {
        code: 'not_found' as const,
        message: `The embedding model ${model} is not on your Ollama server. Pull ${model}? (or run "ollama pull ${model}")`,
        action: { kind: 'pull' as const, model },
      };
    if (err.status === 400 && /does not support embeddings|embed/i.test(err.message))
      return {
        code: 'invalid_input' as const,
        message: `${model} cannot make embeddings: choose an embedding model such as nomic-embed-text.`,
      };
    return undefined;
  }
}
