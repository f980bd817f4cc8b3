// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldMain as main } from '../helpers/held-main';
import { download } from './builtin-fixtures';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { DownloadList } = await import('../../renderer/src/pages/models/builtin/Downloads');

const item = (file: string) => screen.getAllByTestId('download').find((d) => d.dataset.file === file)!;

beforeEach(() => main.reset());
afterEach(cleanup);

describe('the built-in engine: downloads', () => {
  it('shows nothing without downloads', () => {
    render(<DownloadList downloads={[]} onLoad={() => {}} />);
    expect(screen.queryByTestId('downloads')).toBeNull();
  });

  it('a checksum refusal offers Delete and download again, with no Cancel and no "0 B of …"; a loaded model no Load', async () => {
    const list = [
      download({
        id: 'bad',
        file: 'bad.gguf',
        state: 'failed',
        receivedBytes: 0,
        bytesPerSecond: 0,
        etaSeconds: undefined,
        checksumMismatch: true,
        error: { code: 'upstream', message: 'The file’s checksum does not match the Hub’s: the copy was deleted.' },
      }),
      download({ id: 'on', file: 'on.gguf', state: 'done', receivedBytes: 1e9, modelId: 'org/tiny-GGUF/on.gguf' }),
    ];
    render(<DownloadList downloads={list} loaded={['org/tiny-GGUF/on.gguf']} onLoad={() => {}} />);
    const bad = within(item('bad.gguf'));
    expect(bad.getAllByRole('button').map((b) => b.textContent)).toEqual(['Delete and download again', 'Dismiss']);
    expect(bad.queryByRole('progressbar')).toBeNull();
    expect(bad.queryByTestId('download-figures')).toBeNull();
    await userEvent.click(bad.getByRole('button', { name: 'Delete and download again bad.gguf' }));
    expect((await main.next('local.download.restart')).input).toEqual({ id: 'bad' });

    const on = within(item('on.gguf'));
    expect(on.getAllByRole('button').map((b) => b.textContent)).toEqual(['Dismiss']);
    expect(on.getByText('Loaded')).toBeTruthy();
  });

  it('each state: progress, figures and the buttons that fit it', async () => {
    const onLoad = vi.fn();
    const list = [
      download(),
      download({ id: 'd2', file: 'b.gguf', state: 'paused', bytesPerSecond: 0, etaSeconds: undefined }),
      download({
        id: 'd3',
        file: 'c.gguf',
        state: 'failed',
        error: { code: 'invalid_input', message: 'The sha256 does not match the Hub’s: the file was deleted.' },
      }),
      download({ id: 'd4', file: 'd.gguf', state: 'done', receivedBytes: 1e9, modelId: 'org/tiny-GGUF/d.gguf' }),
    ];
    render(<DownloadList downloads={list} onLoad={onLoad} />);

    const a = within(item('tiny-Q8_0.gguf'));
    expect(a.getByTestId('download-state').textContent).toBe('Downloading');
    expect(a.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(a.getByTestId('download-figures').textContent).toBe('250 MB of 1.0 GB (25%) · 12.5 MB/s · 1 min left');
    expect(a.getAllByRole('button').map((b) => b.textContent)).toEqual(['Pause', 'Cancel']);

    const b = within(item('b.gguf'));
    expect(b.getByTestId('download-figures').textContent).toBe('250 MB of 1.0 GB (25%)');
    expect(b.getAllByRole('button').map((x) => x.textContent)).toEqual(['Resume', 'Cancel']);

    const c = within(item('c.gguf'));
    expect(c.getByTestId('download-error').textContent).toMatch(/sha256 does not match/);
    expect(c.getAllByRole('button').map((x) => x.textContent)).toEqual(['Retry', 'Cancel', 'Dismiss']);

    const d = within(item('d.gguf'));
    expect(d.queryByRole('progressbar')).toBeNull();
    expect(d.getAllByRole('button').map((x) => x.textContent)).toEqual(['Load', 'Dismiss']);
    await userEvent.click(d.getByRole('button', { name: 'Load' }));
    expect(onLoad).toHaveBeenCalledWith('org/tiny-GGUF/d.gguf');

    await userEvent.click(a.getByRole('button', { name: 'Pause tiny-Q8_0.gguf' }));
    expect((await main.next('local.download.pause')).input).toEqual({ id: 'd1' });
    await (await main.next('local.download.pause')).answer(list[0]);
    await userEvent.click(c.getByRole('button', { name: 'Retry c.gguf' }));
    const retry = await main.next('local.download.resume');
    expect(retry.input).toEqual({ id: 'd3' });
    await retry.fail({ code: 'unavailable', message: 'The Hub did not answer.' });
    expect(screen.getAllByRole('alert').at(-1)!.textContent).toBe('The Hub did not answer.');
    await userEvent.click(b.getByRole('button', { name: 'Cancel b.gguf' }));
    expect((await main.next('local.download.cancel')).input).toEqual({ id: 'd2' });
  });

  it('a lost watch shows that it listens again, with the last list kept', () => {
    render(
      <DownloadList downloads={[download()]} error={{ code: 'unavailable', message: 'offline' }} onLoad={() => {}} />,
    );
    expect(screen.getByRole('alert').textContent).toMatch(/Lost the download list \(offline\); listening again/);
    expect(screen.getAllByTestId('download')).toHaveLength(1);
  });
});
