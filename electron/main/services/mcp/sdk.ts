/**
 * The MCP SDK's client side, imported on first need: nothing of it is loaded at app start-up, and only its client
 * modules (never the server ones) end up in main's bundle.
 */
export async function loadSdk() {
  const [client, stdio, http, sse, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    SSEClientTransport: sse.SSEClientTransport,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  };
}

export type Sdk = Awaited<ReturnType<typeof loadSdk>>;
export type SdkClient = InstanceType<Sdk['Client']>;

let cached: Promise<Sdk> | undefined;
export function sdk(): Promise<Sdk> {
  cached ??= loadSdk();
  return cached;
}
