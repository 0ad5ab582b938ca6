import type { UsersEmail, UsersEmailSender } from './users-options';

/** Strapi's default e-mail templates of the plugin (`<%= URL %>`, `<%= TOKEN %>`, `<%= CODE %>`). */
const RESET_PASSWORD = {
  subject: 'Reset password',
  message: '<p>We heard that you lost your password. Sorry about that!</p>\n\n<p>But don’t worry! You can use the following link to reset your password:</p>\n<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>Thanks.</p>',
};
const EMAIL_CONFIRMATION = {
  subject: 'Account confirmation',
  message: '<p>Thank you for registering!</p>\n\n<p>You have to confirm your email address. Please click on the link below.</p>\n\n<p><%= URL %>?confirmation=<%= CODE %></p>\n\n<p>Thanks.</p>',
};

/** The plugin's e-mails, or nothing when no sender is configured. */
export interface Mailer {
  readonly configured: boolean;
  /** The reset-password e-mail: the link is `<url>?code=<token>`. */
  sendResetPassword(to: string, url: string, token: string): Promise<void>;
  /** The confirmation e-mail: the link is `<url>?confirmation=<code>`. */
  sendConfirmation(to: string, url: string, code: string): Promise<void>;
}

const fill = (template: string, values: Record<string, string>): string =>
  template.replace(/<%=\s*(\w+)\s*%>/g, (whole, key: string) => values[key] ?? whole);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A value as HTML text (lodash's `escape`): a link or code can never close a tag or an attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Sends the plugin's e-mails through the host's sender: a function `(email) => Promise`, or a nodemailer-style
 * transport (`transport.sendMail(email)`). Without one, nothing is sent and `configured` is false.
 *
 * @example
 * createMailer({ send: nodemailer.createTransport(smtp), from: 'no-reply@example.com' });
 */
export function createMailer(options: { send?: UsersEmailSender; from?: string; replyTo?: string } | undefined): Mailer {
  const sender = options?.send;
  const deliver = async (email: UsersEmail): Promise<void> => {
    if (!sender) throw new Error('No e-mail sender is configured (auth.users.email.send)');
    if (typeof sender === 'function') await sender(email);
    else await sender.sendMail(email);
  };
  const compose = (to: string, template: { subject: string; message: string }, values: Record<string, string>): UsersEmail => {
    const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeHtml(v)]));
    return {
      to,
      ...(options?.from ? { from: options.from } : {}),
      ...(options?.replyTo ? { replyTo: options.replyTo } : {}),
      subject: template.subject,
      text: fill(template.message, values),
      html: fill(template.message, escaped),
    };
  };
  return {
    configured: sender !== undefined,
    sendResetPassword: (to, url, token) => deliver(compose(to, RESET_PASSWORD, { URL: url, TOKEN: token })),
    sendConfirmation: (to, url, code) => deliver(compose(to, EMAIL_CONFIRMATION, { URL: url, CODE: code })),
  };
}
