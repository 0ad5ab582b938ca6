import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { Box, IconButton, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useFormContext, useWatch } from 'react-hook-form';
import { useGetMany, useSourceContext } from 'react-admin';

/**
 * The order of a to-many relation's documents: the list picked in the select above, each movable up and down
 * (the order written is this one, `{ set: [...] }`). Shown from two documents on.
 */
export const RelationOrder = ({ source, reference, optionText, label }: { source: string; reference: string; optionText: string; label: string }) => {
  const path = useSourceContext().getSource(source);
  const { setValue } = useFormContext();
  const value = useWatch({ name: path }) as unknown;
  const ids = Array.isArray(value) ? (value as string[]) : [];
  const { data = [] } = useGetMany(reference, { ids }, { enabled: ids.length > 1 });
  if (ids.length < 2) return null;
  const nameOf = (id: string) => String(data.find((d) => d.id === id)?.[optionText] ?? id);
  const move = (index: number, by: number) => {
    const next = [...ids];
    const [id] = next.splice(index, 1);
    next.splice(index + by, 0, id!);
    setValue(path, next, { shouldDirty: true });
  };
  return (
    <Box sx={{ mt: -1.5, mb: 2, width: '100%' }}>
      <Typography variant="caption" color="text.secondary" id={`${path}-order`}>Order of {label}</Typography>
      <List dense aria-labelledby={`${path}-order`} sx={{ py: 0 }}>
        {ids.map((id, index) => (
          <ListItem key={id} sx={{ py: 0 }} secondaryAction={
            <>
              <IconButton size="small" aria-label={`Move ${nameOf(id)} up in ${label}`} disabled={index === 0} onClick={() => move(index, -1)}><ArrowUpwardIcon fontSize="small" /></IconButton>
              <IconButton size="small" aria-label={`Move ${nameOf(id)} down in ${label}`} disabled={index === ids.length - 1} onClick={() => move(index, 1)}><ArrowDownwardIcon fontSize="small" /></IconButton>
            </>
          }>
            <ListItemText primary={`${index + 1}. ${nameOf(id)}`} />
          </ListItem>
        ))}
      </List>
    </Box>
  );
};
