/**
 * A real OpenID Connect provider (panva's oidc-provider) on 127.0.0.1, port 0, for the social-login tests. One
 * client: CLIENT_ID / CLIENT_SECRET (client_secret_post), redirect URIs REDIRECT_URIS (JSON array). Anyone logs in
 * by name at its interaction endpoint (`POST /interaction/<uid>/login`, form `login=<name>`): the account's
 * `sub` is the name, its e-mail `<name>@idp.test` (unverified when the name starts with `unverified`), and consent
 * is given at once; the name `deny` is refused (`error=access_denied`). Prints `listening <port>` on stdout.
 * Run with `node __tests__/helpers/oidc-provider-child.mjs`.
 */
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { CLIENT_ID, CLIENT_SECRET } = process.env;
const redirectUris = JSON.parse(process.env.REDIRECT_URIS ?? '[]');

function claimsOf(sub) {
  return { sub, email: `${sub}@idp.test`, email_verified: !sub.startsWith('unverified'), preferred_username: sub, name: `User ${sub}` };
}

/** Reads an application/x-www-form-urlencoded body (small). */
async function formBody(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error('body too large');
  }
  return new URLSearchParams(body);
}

async function main() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const provider = new Provider(`http://127.0.0.1:${port}`, {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: redirectUris, response_types: ['code'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_post' }],
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => claimsOf(sub) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-provider-child-test-cookie-key'] },
  });
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
  const callback = provider.callback();

  server.on('request', async (req, res) => {
    try {
      const m = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? '');
      if (!m) return callback(req, res);
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        if (req.method !== 'POST' || !m[2]) {
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<form method="post" action="/interaction/${details.uid}/login"><input name="login"></form>`);
          return;
        }
        const login = (await formBody(req)).get('login');
        // The person who says no: the provider answers the client `error=access_denied`.
        if (login === 'deny') return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the person said no' }, { mergeWithLastSubmission: false });
        return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      }
      // Consent: everything the client asked for.
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      if (details.prompt.details.missingOIDCScope) grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
      if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  console.log(`listening ${port}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
