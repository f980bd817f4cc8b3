import { AppError } from '@shared/errors';

/**
 * The tokens left to answer in after a prompt: refused when there are none, so a client is told (with the counts)
 * rather than answered from a silently shortened prompt.
 */
export function roomAfter(promptTokens: number, contextSize: number, name: string): number {
  const room = contextSize - promptTokens;
  if (room < 1)
    throw new AppError(
      'invalid_input',
      `The prompt is ${promptTokens} tokens, but ${name} is loaded with a context of ${contextSize} tokens: shorten the messages, or load the model with a longer context.`,
      { details: { wireCode: 'context_length_exceeded', promptTokens, contextSize } },
    );
  return room;
}
