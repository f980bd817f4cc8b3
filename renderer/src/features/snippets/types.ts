import type { ModelRecord } from '@shared/model-record';

/** What "Use this model" needs: the model, and the GGUF quantization picked on its page. */
export interface SnippetWorkbenchProps {
  model: ModelRecord;
  /** The GGUF quantization picked on the model page (fills local-app snippets). */
  quant?: string;
}
