import { deliveryJobOptions, RetryLater, webhookQueuePrefix, webhookQueueSettings } from './queue';

test('the queue prefix is the database name: deployments sharing a Redis never mix jobs', () => {
  expect(webhookQueuePrefix('postgres://postgres@127.0.0.1:5432/svc')).toBe('svc:svc');
  expect(webhookQueuePrefix('postgres://u:p@db:5432/svc_e2e_ab12?sslmode=disable')).toBe('svc:svc_e2e_ab12');
});

test('one job per delivery: the job id is the delivery id; retried through the RetryLater backoff', () => {
  expect(deliveryJobOptions('d-1')).toMatchObject({
    jobId: 'd-1',
    removeOnComplete: true,
    removeOnFail: true,
    delay: undefined,
  });
  expect(deliveryJobOptions('d-1', 1500.2).delay).toBe(1501);
  const backoff = deliveryJobOptions('d-1').backoff as { type: string };
  const strategy = webhookQueueSettings(10_000).backoffStrategies![backoff.type];
  expect(strategy(3, new RetryLater(60_000, 'next slot'))).toBe(60_000);
  expect(strategy(3, new RetryLater(0, 'now'))).toBe(1); // 0 would mean "retry at once" to Bull
  expect(strategy(3, new Error('database down'))).toBe(5_000);
});

test('locks outlive an attempt: timeout + 2 s, renewed while it runs', () => {
  expect(webhookQueueSettings(10_000)).toMatchObject({
    lockDuration: 12_000,
    lockRenewTime: 4_000,
    stalledInterval: 6_000,
  });
});
