import type { ChatMessage, ToolCall, ToolDecision } from '@shared/contract/chat-message';
import { toolKey } from '@shared/contract/chat-conversation';
import type { ChatEvent } from '@shared/contract/chat-events';
import { AppError, toAppError } from '@shared/errors';
import type { StreamContext } from '../../../stream-context';
import type { Conversation } from '../../storage/conversation';
import { newId } from '../../storage/rows';
import type { ToolApprovals } from './approvals';
import type { Toolbox } from './toolbox';

interface ToolRoundOptions {
  approvals: ToolApprovals;
  /** How long one call may run before it ends with a timeout error (the model gets it back). */
  timeoutMs: number;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Runs the calls of one assistant turn in order, each as a tool message the user sees change: waiting for
 * approval (unless allowed "always" in this conversation), running (cancellable, with a timeout), then its result
 * or error. Every call gets a result the model reads back, so a bad call never ends the conversation; only the
 * reply's Stop does (the call is kept as stopped, and `aborted` is thrown).
 */
export async function runToolCalls(
  conv: Conversation,
  calls: ToolCall[],
  box: Toolbox,
  ctx: StreamContext<ChatEvent>,
  opts: ToolRoundOptions,
): Promise<ChatMessage[]> {
  const out: ChatMessage[] = [];
  for (const call of calls) out.push(await runOne(conv, call, box, ctx, opts));
  return out;
}

async function runOne(
  conv: Conversation,
  call: ToolCall,
  box: Toolbox,
  ctx: StreamContext<ChatEvent>,
  opts: ToolRoundOptions,
): Promise<ChatMessage> {
  if (ctx.signal.aborted) throw new AppError('aborted', 'Stopped.');
  const offered = box.find(call.name);
  let msg: ChatMessage = {
    id: newId('m'),
    role: 'tool',
    content: '',
    toolName: call.name,
    toolArguments: call.arguments,
    status: 'streaming',
    createdAt: new Date().toISOString(),
    ...(call.id ? { toolCallId: call.id } : {}),
    ...(offered ? { toolSource: offered.source } : {}),
  };
  const save = (patch: Partial<ChatMessage>): ChatMessage => {
    msg = { ...msg, ...patch };
    if (msg.status !== 'streaming') delete msg.toolState;
    conv.put(msg);
    ctx.emit({ type: 'message', message: msg });
    return msg;
  };
  const fail = (err: AppError, content = `Error: ${err.message}`, extra: Partial<ChatMessage> = {}) =>
    save({ status: 'error', error: err.toJSON(), content, ...extra });
  const stopped = (extra: Partial<ChatMessage> = {}): never => {
    save({ status: 'stopped', content: 'The call was stopped before it finished.', ...extra });
    throw new AppError('aborted', 'Stopped.');
  };

  if (call.rawArguments !== undefined)
    return fail(
      new AppError(
        'invalid_input',
        `The arguments of ${call.name} are not a JSON object: ${clip(call.rawArguments, 200)}`,
      ),
    );
  if (!offered) return fail(box.unknown(call.name));

  const key = toolKey(offered.source, offered.tool);
  let decision: ToolDecision = 'auto';
  if (!conv.meta.toolsAllowed.includes(key)) {
    save({ toolState: 'approval' });
    try {
      // An "always" answer is added to the conversation's allowed tools by the service, before this resumes.
      decision = await opts.approvals.ask(conv.meta.id, msg.id, key, ctx.signal);
    } catch {
      return stopped();
    }
    if (decision === 'deny')
      return fail(new AppError('forbidden', 'You declined this call.'), 'The user declined to run this tool call.', {
        toolDecision: 'deny',
      });
  }

  save({ toolState: 'running', toolDecision: decision });
  const controller = new AbortController();
  const onStop = () => controller.abort(new AppError('aborted', 'Stopped.'));
  ctx.signal.addEventListener('abort', onStop, { once: true });
  const untrack = opts.approvals.track(conv.meta.id, msg.id, controller);
  const started = performance.now();
  const took = () => ({ durationMs: Math.round(performance.now() - started) });
  try {
    const res = await box.run(offered, call.arguments, { signal: controller.signal, timeoutMs: opts.timeoutMs });
    return save({
      status: res.isError ? 'error' : 'complete',
      content: res.content,
      ...took(),
      ...(res.images ? { images: res.images } : {}),
      ...(res.isError
        ? { error: new AppError('upstream', `${offered.tool} reported an error: ${clip(res.content, 300)}`).toJSON() }
        : {}),
    });
  } catch (e) {
    if (ctx.signal.aborted) return stopped(took());
    if (controller.signal.aborted)
      return fail(new AppError('aborted', 'You cancelled this call.'), 'The user cancelled this tool call.', took());
    return fail(toAppError(e), undefined, took());
  } finally {
    untrack();
    ctx.signal.removeEventListener('abort', onStop);
  }
}
