import { ApplicationError } from '../errors';

export interface ErrorEnvelope {
  status: number;
  body: { data: null; error: { status: number; name: string; message: string; details?: Record<string, unknown> } };
}

/**
 * The one place errors become Strapi's envelope. An error we did not raise becomes a bare 500 with no internals.
 */
export function formatError(err: unknown): ErrorEnvelope {
  if (err instanceof ApplicationError) {
    return { status: err.status, body: { data: null, error: { status: err.status, name: err.name, message: err.message, details: err.details } } };
  }
  return {
    status: 500,
    body: { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } },
  };
}
