import type { ModelRecord } from '@shared/model-record';
import { Empty } from '../../components/States';

export interface SnippetWorkbenchProps {
  model: ModelRecord;
  /** The GGUF quantization picked on the model page (fills local-app snippets). */
  quant?: string;
}

/** Placeholder until the snippet workbench lands: the model page mounts it under "Use this model". */
export function SnippetWorkbench({ model }: SnippetWorkbenchProps) {
  return <Empty title="Snippets">Usage snippets for {model.id} will appear here.</Empty>;
}
