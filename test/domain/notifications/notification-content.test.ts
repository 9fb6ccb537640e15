import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatNotificationContent,
  parseNotificationContent,
} from '../../../src/domain/notifications/notification-content.js';
import {
  judgeNotificationRequest,
  notificationAnswerHeaders,
  withNotificationWarning,
} from '../../../src/domain/notifications/notification-subscription.js';

describe('TPP-Notification-Content-Preferred', () => {
  it('reads status=X1,...,Xn with spaces, the key in any case, in the order SCA, PROCESS, LAST', () => {
    assert.deepEqual(parseNotificationContent('status=SCA,PROCESS,LAST'), ['SCA', 'PROCESS', 'LAST']);
    assert.deepEqual(parseNotificationContent('Status = LAST, SCA'), ['SCA', 'LAST']);
    assert.deepEqual(parseNotificationContent('STATUS=PROCESS'), ['PROCESS']);
  });

  it('refuses a repeated or unknown constant, lower-case constants, and other syntax', () => {
    for (const value of [
      'status=SCA,SCA',
      'status=sca',
      'status=FINAL',
      'status=',
      'status=SCA,',
      'SCA,PROCESS',
      'status:SCA',
      'status=SCA, status=LAST',
      'content=SCA',
    ])
      assert.equal(parseNotificationContent(value), undefined, value);
  });

  it('writes the answer form', () => {
    assert.equal(formatNotificationContent(['SCA', 'LAST']), 'status=SCA,LAST');
  });
});

describe('the notification answer', () => {
  it('answers nothing without a URI', () => {
    assert.deepEqual(notificationAnswerHeaders(judgeNotificationRequest(undefined, ['SCA'], [], false)), {});
  });

  it('answers true with the preferred contents, all three by default', () => {
    const names = ['tpp.example'];
    assert.deepEqual(
      notificationAnswerHeaders(judgeNotificationRequest('https://tpp.example/', ['LAST'], names, false)),
      {
        'ASPSP-Notification-Support': 'true',
        'ASPSP-Notification-Content': 'status=LAST',
      },
    );
    assert.deepEqual(
      notificationAnswerHeaders(judgeNotificationRequest('https://tpp.example/', undefined, names, false)),
      { 'ASPSP-Notification-Support': 'true', 'ASPSP-Notification-Content': 'status=SCA,PROCESS,LAST' },
    );
  });

  it('answers false with a WARNING after the warnings the body has', () => {
    const refused = judgeNotificationRequest('http://tpp.example/', undefined, ['tpp.example'], false);
    assert.deepEqual(notificationAnswerHeaders(refused), { 'ASPSP-Notification-Support': 'false' });
    const body = withNotificationWarning({ tppMessages: [{ category: 'WARNING', code: 'FORMAT_ERROR' }] }, refused);
    const messages = body.tppMessages as { category: string; code: string; path?: string; text?: string }[];
    assert.equal(messages.length, 2);
    assert.equal(messages[1]!.category, 'WARNING');
    assert.equal(messages[1]!.path, 'header:TPP-Notification-URI');
    assert.match(messages[1]!.text!, /^TPP-Notification-URI is not used.*https only/);
  });
});
