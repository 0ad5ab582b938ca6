import { TextInput } from 'react-admin';

const format = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** Parses as JSON when it can; text that is not JSON yet stays text (the validator below reports it). */
const parse = (text: string) => {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const validJson = (value: unknown) => {
  if (typeof value !== 'string') return undefined;
  try {
    JSON.parse(value);
    return undefined;
  } catch {
    return 'Not valid JSON';
  }
};

/**
 * A JSON value, edited as text. Also the JSON view of a blocks attribute (Strapi's blocks JSON: an array of
 * blocks), *Edit as JSON* of ./BlocksInput.tsx.
 */
export const JsonInput = ({ source, label, blocks }: { source: string; label: string; blocks?: boolean }) => (
  <TextInput
    source={source}
    label={blocks ? `${label} (blocks JSON)` : `${label} (JSON)`}
    multiline
    minRows={3}
    maxRows={16}
    format={format}
    parse={parse}
    validate={blocks ? [validJson, (v: unknown) => (v == null || Array.isArray(v) || typeof v === 'string' ? undefined : 'Blocks are a JSON array')] : validJson}
    helperText={blocks ? 'Strapi blocks: [{ "type": "paragraph", "children": [{ "type": "text", "text": "..." }] }]' : false}
    sx={{ fontFamily: 'monospace' }}
  />
);
