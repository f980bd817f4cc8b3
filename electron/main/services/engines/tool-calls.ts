import type { ToolCall } from '@shared/contract/chat-message';
import type { ToolCallFragment } from './openai-stream';

/**
 * Puts streamed tool calls back together (OpenAI `delta.tool_calls`: an index per call, its id and name once,
 * its arguments as string pieces). Arguments that do not parse to an object are kept raw for the error.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id?: string; name: string; args: string }>();

  add(fragments: ToolCallFragment[]): void {
    for (const f of fragments) {
      const c = this.calls.get(f.index) ?? { name: '', args: '' };
      if (f.id) c.id = f.id;
      if (f.name) c.name += f.name;
      if (f.arguments) c.args += f.arguments;
      this.calls.set(f.index, c);
    }
  }

  done(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => {
        const call: ToolCall = { id: c.id || `call_${index}`, name: c.name, arguments: {} };
        try {
          const parsed: unknown = c.args.trim() ? JSON.parse(c.args) : {};
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            call.arguments = parsed as Record<string, unknown>;
          else call.rawArguments = c.args;
        } catch {
          call.rawArguments = c.args;
        }
        return call;
      });
  }
}
