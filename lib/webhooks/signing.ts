import { createHmac } from 'node:crypto';

/**
 * The signature of one call, in the Standard Webhooks scheme (https://www.standardwebhooks.com/): base64 of
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, sent as `webhook-signature: v1,<base64>`. The key
 * is the secret's bytes; a secret written `whsec_<base64>` (the standard's form) is base64-decoded first, so the
 * Standard Webhooks libraries verify it as they are.
 *
 * @example
 * signature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
 * // 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
