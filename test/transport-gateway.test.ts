// A gateway's own 502 or 504 page (not JSON) is the connection to the service broken, seen
// through a proxy: a read is sent once more, and what stays lost is a LostAnswerError (the
// fixtures block the test), never an answer for the checks to judge. The service's own JSON
// 502 and a request that expects a broken connection go back to the caller as they came.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lostAnswerTransport, type HttpRequest, type HttpResponse, type Transport } from '../lib/client/transport.js';
import { LostAnswerError } from '../lib/errors.js';

const answer = (status: number, type: string, body = ''): HttpResponse => ({ status, headers: { 'content-type': type }, bytes: new TextEncoder().encode(body), durationMs: 1 });
const GATEWAY = answer(502, 'text/plain', 'upstream error: socket hang up');

function scripted(...answers: HttpResponse[]): Transport & { sent: number } {
  const t = { sent: 0, async send(): Promise<HttpResponse> { return answers[Math.min(t.sent++, answers.length - 1)]!; } };
  return t;
}
const req = (method: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({ method, url: 'http://127.0.0.1:1/v2/pods/p1', headers: {}, ...extra });

test('a read answered by a gateway page is sent once more: the second answer is the answer', async () => {
  const inner = scripted(GATEWAY, answer(200, 'application/json', '{"id":"p1"}'));
  const res = await lostAnswerTransport(inner).send(req('GET'));
  assert.equal(res.status, 200);
  assert.equal(inner.sent, 2);
});

test('a read answered twice by a gateway page, and a write answered once, are lost answers', async () => {
  const read = scripted(GATEWAY, answer(504, 'text/html', '<h1>Gateway Timeout</h1>'));
  await assert.rejects(lostAnswerTransport(read).send(req('GET')), (e: unknown) => e instanceof LostAnswerError && /a gateway answered 502 \(text\/plain/.test(e.message) && /a second try/.test(e.message));
  assert.equal(read.sent, 2);
  const write = scripted(GATEWAY, answer(201, 'application/json', '{}'));
  await assert.rejects(lostAnswerTransport(write).send(req('POST')), (e: unknown) => e instanceof LostAnswerError && /not sent again/.test(e.message));
  assert.equal(write.sent, 1, 'a write whose answer was lost may have happened: never sent twice');
});

test("the service's own JSON 502, other statuses, and a request expecting a broken connection are returned as they came", async () => {
  for (const [res, options] of [[answer(502, 'application/problem+json', '{"status":502}'), {}], [answer(500, 'text/plain', 'oops'), {}], [GATEWAY, { brokenConnectionExpected: true }]] as const) {
    const inner = scripted(res);
    assert.equal((await lostAnswerTransport(inner).send(req('GET', options))).status, res.status);
    assert.equal(inner.sent, 1);
  }
});
