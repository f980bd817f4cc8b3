import { AppError } from './errors';

/**
 * "Live Hub access is off and nothing is cached": main refuses the call without a request, and a screen shows its
 * off state (with the way to turn access on) rather than an error. One constructor for main, one predicate for the
 * renderer, so the marker below is spelled once.
 */
const REASON = 'hub-off';

export const HUB_OFF_MESSAGE =
  'Live Hub access is off. Choose "Use the Hub" in Settings → Hub access to ask huggingface.co (nothing is sent until you do).';

export function hubOffError(message: string = HUB_OFF_MESSAGE): AppError {
  return new AppError('forbidden', message, { details: { reason: REASON } });
}

/** Whether a failed call was refused because Hub access is off (an AppError, or its shape as it crossed the wire). */
export function isHubOff(e: unknown): boolean {
  const details = typeof e === 'object' && e !== null ? (e as { details?: unknown }).details : undefined;
  return typeof details === 'object' && details !== null && (details as { reason?: unknown }).reason === REASON;
}
