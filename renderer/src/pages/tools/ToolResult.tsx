import type { McpToolResult } from '@shared/contract/mcp';

/** A tool's answer: its text, images and resources, and whether the tool reported an error. */
export function ToolResult({ result }: { result: McpToolResult }) {
  return (
    <div className={`mcp-result${result.isError ? ' mcp-result-error' : ''}`} data-testid="mcp-result" role="status">
      <p className="muted small">
        {result.isError ? 'The tool reported an error' : 'Result'} · {result.durationMs} ms
        {result.truncated && ' · cut to a bounded size'}
      </p>
      {result.content.map((c, i) =>
        c.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(c.mimeType) ? (
          <img key={i} src={`data:${c.mimeType};base64,${c.data}`} alt={`image ${i + 1} from ${result.tool}`} />
        ) : (
          <pre key={i} className="mcp-pre">
            {c.type === 'image' || c.type === 'audio'
              ? `[${c.type}, ${c.mimeType}]`
              : c.type === 'resource'
                ? `${c.uri}\n${c.text}`
                : c.text}
          </pre>
        ),
      )}
    </div>
  );
}
