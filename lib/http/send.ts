import type { Request, Response } from 'express';
import { toV4 } from '../format/format-v4';
import type { ContentType, Registry } from '../schema';

/**
 * Sends `{ data, meta }`. With the request header `Strapi-Response-Format: v4`, documents are rendered in the
 * v4 shape (`{ id, documentId, attributes }`, relations wrapped in `{ data }`).
 */
export function sendData(req: Request, res: Response, registry: Registry, ct: ContentType, status: number, data: unknown, meta: Record<string, unknown>): void {
  const v4 = String(req.headers['strapi-response-format'] ?? '').toLowerCase() === 'v4';
  const body = v4 ? { data: toV4(registry, ct.uid, data), meta } : { data, meta };
  res.status(status).json(body);
}
