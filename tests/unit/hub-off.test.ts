import { describe, expect, it } from 'vitest';
import { AppError, toAppError } from '@shared/errors';
import { HUB_OFF_MESSAGE, hubOffError, isHubOff } from '@shared/hub-off';

describe('the Hub-off error', () => {
  it('is the AppError main has always sent: forbidden, the message given, details.reason hub-off', () => {
    const e = hubOffError('Live Hub access is off, so nothing was read.');
    expect(e).toBeInstanceOf(AppError);
    expect(e.toJSON()).toEqual({
      code: 'forbidden',
      message: 'Live Hub access is off, so nothing was read.',
      details: { reason: 'hub-off' },
    });
    expect(hubOffError().message).toBe(HUB_OFF_MESSAGE);
    expect(HUB_OFF_MESSAGE).toMatch(/Settings → Hub access/);
  });

  it('is recognised after crossing the boundary (as an AppError or its plain shape), and nothing else is', () => {
    const sent = hubOffError();
    expect(isHubOff(sent)).toBe(true);
    expect(isHubOff(JSON.parse(JSON.stringify(sent)))).toBe(true);
    expect(isHubOff(toAppError(JSON.parse(JSON.stringify(sent))))).toBe(true);
    expect(isHubOff(new AppError('forbidden', HUB_OFF_MESSAGE))).toBe(false);
    expect(isHubOff(new AppError('forbidden', 'x', { details: { reason: 'gated' } }))).toBe(false);
    for (const other of [undefined, null, 'hub-off', 42, new Error('hub-off'), { details: 'hub-off' }])
      expect(isHubOff(other)).toBe(false);
  });
});
