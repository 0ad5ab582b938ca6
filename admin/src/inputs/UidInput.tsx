import AutorenewIcon from '@mui/icons-material/Autorenew';
import { IconButton, InputAdornment, Tooltip } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { TextInput, useRecordContext } from 'react-admin';
import { slugify } from '../slugify';

/**
 * A uid: typed, or generated from its `targetField` (the button; and while a new document's uid was not typed,
 * each change of the target field), with Strapi's admin's slug rules.
 */
export const UidInput = ({ source, label, targetField }: { source: string; label: string; targetField?: string }) => {
  const { setValue, getValues } = useFormContext();
  const record = useRecordContext();
  const targetPath = targetField ? source.replace(/[^.]+$/, targetField) : undefined;
  const target = useWatch({ name: targetPath ?? '__none__' }) as unknown;
  const typed = useRef(false);
  useEffect(() => {
    if (!targetPath || record?.id || typed.current || typeof target !== 'string') return;
    setValue(source, slugify(target), { shouldDirty: true });
  }, [target, targetPath, record?.id, setValue, source]);
  const regenerate = () => {
    const value = targetPath ? getValues(targetPath) : undefined;
    if (typeof value === 'string') setValue(source, slugify(value), { shouldDirty: true });
  };
  return (
    <TextInput
      source={source}
      label={label}
      onChange={() => (typed.current = true)}
      helperText={targetField ? `Generated from ${targetField}` : false}
      InputProps={
        targetField
          ? {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={`Generate from ${targetField}`}>
                    <IconButton aria-label={`Generate ${label} from ${targetField}`} onClick={regenerate} edge="end" size="small">
                      <AutorenewIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            }
          : undefined
      }
    />
  );
};
