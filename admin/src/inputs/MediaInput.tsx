import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Card, CardActions, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, FormHelperText, FormLabel, IconButton, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { useGetList, useInput, useNotify, type RaRecord } from 'react-admin';
import { mediaUrl } from '../api';
import { uploadFiles } from '../data-provider';
import { FILES } from '../model';

type File = RaRecord & { name?: string; url?: string; mime?: string; formats?: { thumbnail?: { url?: string } } };

/** A file's preview: its thumbnail (images), else its name. */
export const FilePreview = ({ file, size = 64 }: { file: File; size?: number }) => {
  const src = file.mime?.startsWith('image/') ? mediaUrl(file.formats?.thumbnail?.url ?? file.url) : undefined;
  return src ? (
    <img src={src} alt={String(file.alternativeText ?? file.name ?? '')} style={{ width: size, height: size, objectFit: 'cover', borderRadius: 4 }} />
  ) : (
    <Box sx={{ width: size, height: size, display: 'grid', placeItems: 'center', bgcolor: 'action.hover', borderRadius: 1, fontSize: 11, overflow: 'hidden' }}>{file.ext ?? 'file'}</Box>
  );
};

/** The library picker: the media library's files, page by page; a click picks one (several for a multiple media). */
export const LibraryDialog = ({ open, onClose, onPick, multiple }: { open: boolean; onClose: () => void; onPick: (files: File[]) => void; multiple: boolean }) => {
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<File[]>([]);
  const { data = [], pageInfo } = useGetList<File>(FILES, { pagination: { page, perPage: 24 }, sort: { field: 'id', order: 'DESC' } }, { enabled: open });
  const toggle = (file: File) => {
    if (!multiple) return onPick([file]);
    setChosen((list) => (list.some((f) => f.id === file.id) ? list.filter((f) => f.id !== file.id) : [...list, file]));
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="library-title">
      <DialogTitle id="library-title">Media library</DialogTitle>
      <DialogContent>
        {data.length === 0 && <Typography>No files yet.</Typography>}
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 1 }}>
          {data.map((file) => {
            const selected = chosen.some((f) => f.id === file.id);
            return (
              <Button key={file.id} onClick={() => toggle(file)} aria-pressed={multiple ? selected : undefined} variant={selected ? 'contained' : 'outlined'} sx={{ flexDirection: 'column', textTransform: 'none' }}>
                <FilePreview file={file} size={80} />
                <Typography variant="caption" noWrap sx={{ maxWidth: 110 }}>{file.name}</Typography>
              </Button>
            );
          })}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button disabled={page === 1} onClick={() => setPage(page - 1)}>Previous page</Button>
        <Button disabled={!pageInfo?.hasNextPage} onClick={() => setPage(page + 1)}>Next page</Button>
        <Button onClick={onClose}>Cancel</Button>
        {multiple && <Button variant="contained" disabled={!chosen.length} onClick={() => { onPick(chosen); setChosen([]); }}>Add {chosen.length || ''} file(s)</Button>}
      </DialogActions>
    </Dialog>
  );
};

/**
 * A media attribute: the chosen files (reorderable when multiple), an upload button (several files at once for a
 * multiple media) and a picker over the media library. The form holds the file objects; a write sends their ids.
 */
export const MediaInput = ({ source, label, multiple }: { source: string; label: string; multiple: boolean }) => {
  const { field, fieldState, id } = useInput({ source, format: (v: unknown) => v, parse: (v: unknown) => v });
  const notify = useNotify();
  const fileInput = useRef<HTMLInputElement>(null);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const value = field.value as unknown;
  const files: File[] = multiple ? (Array.isArray(value) ? (value as File[]) : []) : value && typeof value === 'object' ? [value as File] : [];
  const set = (list: File[]) => field.onChange(multiple ? list : (list[list.length - 1] ?? null));
  const add = (list: File[]) => set(multiple ? [...files, ...list.filter((f) => !files.some((g) => g.id === f.id))] : list);
  const move = (index: number, by: number) => {
    const list = [...files];
    const [file] = list.splice(index, 1);
    list.splice(index + by, 0, file!);
    set(list);
  };
  const upload = async (chosen: FileList | null) => {
    if (!chosen?.length) return;
    setBusy(true);
    try {
      add((await uploadFiles([...chosen])) as File[]);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };
  return (
    <Box component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, mb: 2, width: '100%' }} aria-describedby={`${id}-help`}>
      <FormLabel component="legend" sx={{ px: 0.5 }}>{label}</FormLabel>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {files.map((file, index) => (
          <Card key={String(file.id)} variant="outlined" sx={{ width: 150 }}>
            <CardContent sx={{ p: 1, pb: 0 }}>
              <FilePreview file={file} size={64} />
              <Typography variant="caption" component="div" noWrap>{file.name}</Typography>
            </CardContent>
            <CardActions sx={{ p: 0.5 }}>
              {multiple && <IconButton size="small" aria-label={`Move ${file.name} up`} disabled={index === 0} onClick={() => move(index, -1)}><ArrowUpwardIcon fontSize="small" /></IconButton>}
              {multiple && <IconButton size="small" aria-label={`Move ${file.name} down`} disabled={index === files.length - 1} onClick={() => move(index, 1)}><ArrowDownwardIcon fontSize="small" /></IconButton>}
              <IconButton size="small" aria-label={`Remove ${file.name} from ${label}`} onClick={() => set(files.filter((f) => f.id !== file.id))}><CloseIcon fontSize="small" /></IconButton>
            </CardActions>
          </Card>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
        <Button size="small" variant="outlined" disabled={busy} onClick={() => fileInput.current?.click()}>{busy ? 'Uploading…' : `Upload ${multiple ? 'files' : 'a file'}`}</Button>
        <Button size="small" variant="outlined" onClick={() => setPicking(true)}>Choose from the library</Button>
        <input ref={fileInput} type="file" hidden multiple={multiple} aria-label={`Upload to ${label}`} onChange={(e) => void upload(e.target.files)} />
      </Box>
      <FormHelperText id={`${id}-help`} error={!!fieldState.error}>{fieldState.error?.message ?? (multiple ? 'Several files, in this order' : 'One file')}</FormHelperText>
      <LibraryDialog open={picking} multiple={multiple} onClose={() => setPicking(false)} onPick={(list) => { add(list); setPicking(false); }} />
    </Box>
  );
};
