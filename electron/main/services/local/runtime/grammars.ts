import type { Llama, LlamaGrammar } from 'node-llama-cpp';
import type { HostGrammar } from '../host/protocol';

/** Grammars kept compiled (an agent sends the same schema with every request). */
const GRAMMAR_CACHE = 16;

/** The grammars a generation asked for, compiled once by the host's llama.cpp. */
export class GrammarCache {
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(private readonly start: () => Promise<Llama>) {}

  /** A compiled grammar, from the cache when the same one was asked before (least recently used goes first). */
  async get(g: HostGrammar): Promise<LlamaGrammar> {
    const key = JSON.stringify(g);
    let p = this.grammars.get(key);
    if (p) this.grammars.delete(key);
    else {
      const llama = await this.start();
      p = g.type === 'json' ? llama.getGrammarFor('json') : llama.createGrammarForJsonSchema(g.schema as never);
      p.catch(() => this.grammars.delete(key));
    }
    this.grammars.set(key, p);
    if (this.grammars.size > GRAMMAR_CACHE) this.grammars.delete(this.grammars.keys().next().value!);
    return p;
  }
}
