import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from './config/config.js';
import type { Clock } from './domain/clock.js';
import type { Jwks } from './security/notification-signer.js';
import { NotificationSigner } from './security/notification-signer.js';
import { ensureNotificationSigningKey } from './security/notification-signing-key.js';
import { NotificationRelay } from './services/notifications/notification-relay.js';
import { notificationSender } from './services/notifications/notification-sender.js';
import type { Store } from './store/store.js';
import { whenSettled, wrapStoreMethods } from './store/store-wrapper.js';

/**
 * The store's methods that may change a status a TPP can subscribe to: after each, the relay is
 * nudged to send what the change wrote to the outbox at once. A change another way (another
 * instance, a method not named here) goes out with the next sweep, within NOTIFICATION_SWEEP_MS.
 */
export const STATUS_WRITES: ReadonlySet<string> = new Set([
  'cancelPayment',
  'decidePayments',
  'executePayments',
  'executePeriodicPayments',
  'advanceAuthorisation',
  'giveAisConsent',
  'refuseAisConsent',
  'withdrawAisConsent',
  'terminateAisConsents',
  'expireConsents',
  'completeHandovers',
  'applyCoreReports',
  'cancelUnsentHandover',
  'resendNotification',
] satisfies (keyof Store)[]);

/** The bank's notifications to TPPs: the relay that sends them, the JWKS a TPP checks them with, and the store that nudges the relay. */
export interface ServerNotifications {
  relay: NotificationRelay;
  /** Publishes the key's public half (the JWKS), then starts the relay: after the server listens, so the start does not load the JOSE library. */
  start(): Promise<void>;
  jwks: () => Promise<Jwks>;
  store: Store;
}

/**
 * Reads (or on the first start makes) the signing key and makes the relay; `start`, once the server
 * listens, publishes the key's public half where every instance's JWKS finds it and starts sending.
 */
export async function serverNotifications(
  config: Config,
  store: Store,
  clock: Clock,
  log: (level: 'warn' | 'info', fields: Record<string, unknown>, message: string) => void,
): Promise<ServerNotifications> {
  const key = await ensureNotificationSigningKey(config.dataDir, config.notifications.signingKeyFile);
  const signer = new NotificationSigner(key);
  const send = notificationSender({ mode: config.mode, allowedNetworks: config.notifications.allowedNetworks });
  // Claims name the instance: the host and process, and a random part for a restart with the same pid.
  const instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const relay = new NotificationRelay(store, signer, send, instance, clock, log);
  const nudging = wrapStoreMethods(store, (name, call) =>
    STATUS_WRITES.has(name)
      ? (...args: unknown[]) =>
          whenSettled(
            () => call(args),
            () => relay.nudge(),
          )
      : undefined,
  );
  const publish = async () =>
    store.publishNotificationKey(await signer.keyId(), JSON.stringify(await signer.publicJwk()), clock.now());
  return {
    relay,
    start: () =>
      publish().then(
        () => relay.start(),
        (error: unknown) =>
          log(
            'warn',
            { err: error },
            'the notification key could not be published; notifications wait for the next start',
          ),
      ),
    store: nudging,
    jwks: async () => ({
      keys: (await store.notificationKeys()).map((jwk) => JSON.parse(jwk) as Record<string, unknown>),
    }),
  };
}
