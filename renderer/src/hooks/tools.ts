import type { Input } from '@shared/contract';
import { api } from '../api';

/** The MCP servers of the Tools screen: start/stop, their stderr, and running one of their tools by hand. */
export const mcpServers = {
  status: () => api.call('mcp.servers', {}),
  control: (action: 'mcp.start' | 'mcp.restart' | 'mcp.stop', name: string) => api.call(action, { name }),
  log: (name: string) => api.call('mcp.log', { name }),
  /** A tool call from the "Try it" form: a stream, so the user can cancel it. */
  callTool: (input: Input<'mcp.callTool'>) => api.stream('mcp.callTool', input, () => {}),
};
