import { renderPage, signUpNewUser } from '@tm/web-test-support';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TaskListPage from '../../../expose/task-list-page';
import { playedSources, stubAudioPlay } from '../../../test/browser-stubs';

async function addTask(user: ReturnType<typeof userEvent.setup>, title: string) {
  await user.type(screen.getByRole('textbox', { name: 'New task' }), title);
  await user.click(screen.getByRole('button', { name: 'Add Task' }));
  await screen.findByText(title);
}

describe('sounds that cannot play (PRODUCT §8: silently disabled, logged only)', () => {
  let info: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(async () => {
    await signUpNewUser('Ada Lovelace');
    info = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    error = jest.spyOn(console, 'error');
  });
  afterEach(() => jest.restoreAllMocks());

  it('stops playing a sound whose file failed to load', async () => {
    const user = userEvent.setup();
    const play = stubAudioPlay(function (this: HTMLMediaElement) {
      this.dispatchEvent(new Event('error')); // the file turns out to be missing
      return Promise.resolve();
    });
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');

    await addTask(user, 'First');
    await addTask(user, 'Second');
    expect(playedSources(play)).toEqual(['/sounds/added.mp3']);
    expect(info).toHaveBeenCalledWith('Sound /sounds/added.mp3 is disabled', expect.anything());
    expect(error).not.toHaveBeenCalled();
    expect(screen.queryByText(/failed/i)).not.toBeInTheDocument();
  });

  it('stops playing a sound the browser refused to play', async () => {
    const user = userEvent.setup();
    const play = stubAudioPlay(() => Promise.reject(new DOMException('no supported source', 'NotSupportedError')));
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');

    await addTask(user, 'First');
    await addTask(user, 'Second');
    await addTask(user, 'Third');
    expect(playedSources(play)).toEqual(['/sounds/added.mp3']);
    expect(info).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith('Sound /sounds/added.mp3 is disabled', expect.any(DOMException));
    expect(error).not.toHaveBeenCalled();
  });

  it('keeps playing a sound that works', async () => {
    const user = userEvent.setup();
    const play = stubAudioPlay();
    renderPage(<TaskListPage />);
    await screen.findByText('No tasks');

    await addTask(user, 'First');
    await addTask(user, 'Second');
    expect(playedSources(play)).toEqual(['/sounds/added.mp3', '/sounds/added.mp3']);
    expect(info).not.toHaveBeenCalled();
  });
});
