import type { DoctorReport, EndpointPreset } from '@shared/contract/endpoints';
import { AppError } from '@shared/errors';
import { plural } from '@shared/plural';
import { parseEndpoint } from '../net/endpoints';
import { oneToken, pickModel } from './doctor-chat';
import { baseCandidates, locate } from './doctor-locate';
import { describeModels } from './models';
import { networkProblem, type Deadline } from './problems';

type Check = DoctorReport['checks'][number];

export interface DoctorInput {
  /** The address as typed (or stored): `/v1` may be there or not. */
  baseUrl: string;
  preset: EndpointPreset;
  /** The endpoint's key-bound fetch. */
  fetch: typeof fetch;
  hasKey: boolean;
  deadlineMs?: number;
}

/**
 * The endpoint doctor: `GET /models` where the address points, with and without `/v1`, then a one-token streamed
 * chat with the first model, all within one hard deadline. It says what is wrong in words a person can act on, and
 * what works: streaming, tool calls, reasoning, usage figures, context length.
 */
export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const started = Date.now();
  const ms = input.deadlineMs ?? 3000;
  const deadline: Deadline = { signal: AbortSignal.timeout(ms), ms };
  const typed = parseEndpoint(input.baseUrl, 'Endpoint address').href;
  const checks: Check[] = [];
  const done = (problem: AppError | undefined, baseUrl: string, models?: number): DoctorReport => ({
    ok: !problem,
    baseUrl,
    ...(problem ? { problem: problem.toJSON() } : {}),
    checks,
    ...(models !== undefined ? { models } : {}),
    elapsedMs: Date.now() - started,
  });
  const fail = (name: Check['name'], problem: AppError, baseUrl = typed, models?: number) => {
    checks.push({ name, ok: false, detail: problem.message });
    return done(problem, baseUrl, models);
  };

  let current = typed;
  try {
    const found = await locate(baseCandidates(input.baseUrl), input.fetch, deadline.signal, input.hasKey);
    const { host } = new URL(typed);
    checks.push({ name: 'reach', ok: true, detail: `${host} answers.` });
    if ('problem' in found) return fail('models', found.problem);
    const base = found.base;
    const models = await describeModels(found.entries, { baseUrl: base, fetch: input.fetch }, deadline.signal);
    const model = pickModel(models);
    if (!model)
      return fail(
        'models',
        new AppError(
          'not_found',
          `${host} serves no chat model — load one (llama-server -m, lms load, vllm serve <model>) and test again.`,
        ),
        base,
        models.length,
      );
    checks.push({
      name: 'models',
      ok: true,
      detail: `${plural(models.length, 'model')} at ${base}/models.`,
    });
    current = base;
    const { probe, problem } = await oneToken(base, model.id, input, deadline);
    if (problem) return fail('chat', problem, base, models.length);
    checks.push({ name: 'chat', ok: true, detail: `${model.id} answered a one-token chat.` });
    checks.push({
      name: 'streaming',
      ok: probe.streamed && probe.frames > 0,
      detail: probe.streamed ? `Streams replies (${probe.frames} frames).` : 'Answered whole, not as a stream.',
    });
    checks.push({
      name: 'tools',
      ok: probe.toolsAccepted,
      detail: probe.toolsAccepted
        ? 'Accepts tool definitions.'
        : `Refused a request offering tools — keep tools off in its chats.${probe.toolsRefusal ? ` The server said: ${probe.toolsRefusal}` : ''}`,
    });
    checks.push({
      name: 'reasoning',
      ok: probe.reasoning,
      ...(probe.reasoning ? {} : { unseen: true }),
      detail: probe.reasoning
        ? 'Sends reasoning apart from the reply.'
        : 'Not seen in a one-token reply: a reasoning model may still show it on longer answers.',
    });
    checks.push({
      name: 'usage',
      ok: probe.usage,
      detail: probe.usage ? 'Reports token counts or timings.' : 'No usage figures: speed is measured in HubDesk.',
    });
    const ctx = model.contextLength;
    checks.push({
      name: 'context',
      ok: !!ctx,
      detail: ctx
        ? `${model.id}: ${ctx.toLocaleString('en-US')} tokens of context${model.trainedContext && model.trainedContext !== ctx ? ` (trained with ${model.trainedContext.toLocaleString('en-US')})` : ''}.`
        : `The server does not say the context length it runs ${model.id} with: the chat asks for it once and keeps it.`,
    });
    return done(undefined, base, models.length);
  } catch (e) {
    if (e instanceof AppError) return fail(checks.length ? 'chat' : 'reach', e, current);
    const problem = networkProblem(e, current, input.preset, deadline);
    // A failure after the server answered (a cut stream, the deadline mid-chat) is the chat's.
    return fail(checks.length ? 'chat' : 'reach', problem, checks.length ? current : typed);
  }
}
