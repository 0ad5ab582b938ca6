import { Box, FormControlLabel, FormHelperText, FormLabel, Switch } from '@mui/material';
import { useId, useMemo, useRef, useState } from 'react';
import { useInput } from 'react-admin';
import { BlocksEditor } from '../blocks/BlocksEditor';
import { toEditor } from '../blocks/convert';
import { JsonInput } from './JsonInput';

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * A `blocks` attribute (Strapi's rich text): the blocks editor, or its JSON with *Edit as JSON*. The form value is
 * the API's value until the content is edited (a document opened and saved untouched writes back what it read).
 * A change of the value from outside (a reload, *Fill in from locale*, the JSON view) restarts the editor on it.
 */
export const BlocksInput = ({ source, label }: { source: string; label: string }) => {
  const { field, fieldState } = useInput({ source, format: (v: unknown) => v, parse: (v: unknown) => v });
  const labelId = useId();
  const [asJson, setAsJson] = useState(false);
  const emitted = useRef<unknown>(undefined);
  const seen = useRef<unknown>(field.value);
  const generation = useRef(0);
  if (field.value !== seen.current) {
    if (!same(field.value, emitted.current)) generation.current += 1;
    seen.current = field.value;
  }
  const gen = generation.current;
  // A new document only when the value came from outside, or when the editor comes back from the JSON view.
  const initial = useMemo(() => toEditor(field.value), [gen]);
  const json = asJson || initial === null;
  return (
    <Box sx={{ width: '100%', mb: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
        <FormLabel id={labelId} error={!!fieldState.error}>{label}</FormLabel>
        <FormControlLabel
          control={<Switch size="small" checked={json} disabled={initial === null} onChange={(e) => {
                if (!e.target.checked) generation.current += 1;
                setAsJson(e.target.checked);
              }} />}
          label="Edit as JSON"
          slotProps={{ typography: { variant: 'body2' } }}
        />
      </Box>
      {json ? (
        <>
          <JsonInput source={source} label={label} blocks />
          {initial === null && <FormHelperText>Not a blocks array: fix the JSON to edit it as rich text.</FormHelperText>}
        </>
      ) : (
        <>
          <BlocksEditor
            key={gen}
            initial={initial}
            label={label}
            labelId={labelId}
            error={!!fieldState.error}
            onChange={(value) => {
              emitted.current = value;
              field.onChange(value);
            }}
          />
          {fieldState.error && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
        </>
      )}
    </Box>
  );
};
