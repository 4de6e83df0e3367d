import { sendInWindows, WindowOutcome } from './delivery-windows';

const ids = Array.from({ length: 10 }, (_, k) => String(k + 1));
const sent: WindowOutcome = { retryInMs: null, endpointGone: false };

/** A receiver that answers after a turn, recording the order of calls and how many were in flight at most. */
function receiver(answer: (id: string) => WindowOutcome) {
  const calls: string[] = [];
  let inFlight = 0;
  let most = 0;
  const send = async (id: string) => {
    calls.push(id);
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight -= 1;
    return answer(id);
  };
  return { calls, send, most: () => most };
}

describe('sendInWindows', () => {
  it('sends every id in order, at most a window at a time', async () => {
    const r = receiver(() => sent);
    expect(await sendInWindows(ids, 4, r.send)).toEqual({ failed: [], unsent: [] });
    expect(r.calls).toEqual(ids);
    expect(r.most()).toBe(4);
  });

  it('stops after the window with a failure: the failures to retry, the rest unsent', async () => {
    const r = receiver((id) => (id === '6' || id === '7' ? { retryInMs: 500 + Number(id), endpointGone: false } : sent));
    expect(await sendInWindows(ids, 4, r.send)).toEqual({
      failed: [
        { id: '6', retryInMs: 506 },
        { id: '7', retryInMs: 507 },
      ],
      unsent: ['9', '10'],
    });
    expect(r.calls).toEqual(ids.slice(0, 8));
  });

  it('stops at once, retrying nothing, when the endpoint is gone', async () => {
    const r = receiver((id) => (id === '2' ? { retryInMs: null, endpointGone: true } : { retryInMs: 100, endpointGone: false }));
    expect(await sendInWindows(ids, 4, r.send)).toEqual({ failed: [], unsent: [] });
    expect(r.calls).toEqual(ids.slice(0, 4));
  });
});
