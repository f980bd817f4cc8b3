import { useMemo, useState } from 'react';
import type { SnippetOptions } from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { useSettings } from '../../store/settings';
import { useDebounced } from './workbench-helpers';

const isUrl = (s: string) => /^https?:\/\/\S+/i.test(s.trim());

/**
 * The options bar: provider, streaming, direct request, bill-to, endpoint and sample input, with the Settings
 * defaults; typed fields are debounced so a snippet is generated per pause, not per key.
 */
export function useSnippetOptions(model: ModelRecord) {
  const defaults = useSettings((s) => s.view?.values);
  const [provider, setProvider] = useState<string>();
  const [streaming, setStreaming] = useState(false);
  const [direct, setDirect] = useState(false);
  const [billTo, setBillTo] = useState<string>();
  const [endpointUrl, setEndpointUrl] = useState('');
  const [inputs, setInputs] = useState('');

  const isChat =
    ['text-generation', 'image-text-to-text'].includes(model.pipeline_tag ?? '') &&
    model.tags.includes('conversational');
  const effectiveProvider = provider ?? defaults?.defaultProvider ?? 'hf-inference';
  const effectiveBillTo = billTo ?? defaults?.billTo ?? '';
  const textKey = useDebounced(JSON.stringify([effectiveBillTo, endpointUrl, inputs]), 300);
  const options = useMemo<SnippetOptions>(() => {
    const [b, e, i] = JSON.parse(textKey) as [string, string, string];
    const o: SnippetOptions = { provider: effectiveProvider };
    if (streaming) o.streaming = true;
    if (direct) o.directRequest = true;
    if (b.trim()) o.billTo = b.trim();
    if (isUrl(e)) o.endpointUrl = e.trim();
    if (i.trim()) {
      if (isChat) o.messages = [{ role: 'user', content: i.trim() }];
      else o.inputs = i;
    }
    return o;
  }, [effectiveProvider, streaming, direct, textKey, isChat]);

  return {
    options,
    isChat,
    provider: effectiveProvider,
    setProvider,
    streaming,
    setStreaming,
    direct,
    setDirect,
    billTo: effectiveBillTo,
    setBillTo,
    endpointUrl,
    setEndpointUrl,
    endpointInvalid: endpointUrl.trim() !== '' && !isUrl(endpointUrl),
    inputs,
    setInputs,
  };
}
