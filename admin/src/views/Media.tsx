import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import UploadIcon from '@mui/icons-material/Upload';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import {
  DeleteButton, Edit, List, Pagination, SaveButton, SearchInput, SimpleForm, TextInput, Toolbar, TopToolbar,
  useCanAccess, useCreatePath, useListContext, useNotify, useRecordContext, useRefresh, type RaRecord,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { mediaUrl } from '../api';
import { uploadFiles } from '../data-provider';
import { FilePreview } from '../inputs/MediaInput';
import { FILES } from '../model';

/** Uploads several files at once into the library. */
const UploadButton = () => {
  const input = useRef<HTMLInputElement>(null);
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const { canAccess } = useCanAccess({ action: 'create', resource: FILES });
  if (!canAccess) return null;
  const upload = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    try {
      const stored = await uploadFiles([...files]);
      notify(`${stored.length} file(s) uploaded`, { type: 'info' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <>
      <Button startIcon={<UploadIcon />} size="small" disabled={busy} onClick={() => input.current?.click()}>{busy ? 'Uploading…' : 'Upload files'}</Button>
      <input ref={input} type="file" multiple hidden aria-label="Files to upload" onChange={(e) => void upload(e.target.files)} />
    </>
  );
};

const FileGrid = () => {
  const { data = [] } = useListContext<RaRecord>();
  const createPath = useCreatePath();
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource: FILES });
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 2, p: 2 }}>
      {data.map((file) => (
        <Card key={file.id} variant="outlined">
          <CardContent sx={{ pb: 0 }}>
            <FilePreview file={file} size={148} />
            <Typography variant="body2" noWrap title={String(file.name)}>{String(file.name)}</Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">{String(file.alternativeText ?? '')}</Typography>
          </CardContent>
          <CardActions>
            {canEdit && <Button size="small" startIcon={<EditIcon />} component={Link} to={createPath({ resource: FILES, type: 'edit', id: file.id })} aria-label={`Edit ${String(file.name)}`}>Edit</Button>}
            <DeleteButton record={file} resource={FILES} mutationMode="pessimistic" label="" icon={<DeleteIcon />} aria-label={`Delete ${String(file.name)}`} redirect={false} />
          </CardActions>
        </Card>
      ))}
      {data.length === 0 && <Typography sx={{ p: 2 }}>No files.</Typography>}
    </Box>
  );
};

/** The media library: browse (newest first), search by name, upload several files, edit, delete. */
export const MediaList = () => (
  <List resource={FILES} title="Media library" filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Search files" />]} actions={<TopToolbar><UploadButton /></TopToolbar>} perPage={24} sort={{ field: 'id', order: 'DESC' }} pagination={<Pagination rowsPerPageOptions={[24, 48, 96]} />}>
    <FileGrid />
  </List>
);

const MediaToolbar = () => (
  <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
    <SaveButton />
    <DeleteButton mutationMode="pessimistic" />
  </Toolbar>
);

/** A file's information: name, alternative text, caption (`POST /upload?id=`). */
export const MediaEdit = () => (
  <Edit resource={FILES} mutationMode="pessimistic" title="File" redirect="list">
    <SimpleForm toolbar={<MediaToolbar />} sx={{ maxWidth: 700 }}>
      <FileLink />
      <TextInput source="name" label="Name" />
      <TextInput source="alternativeText" label="Alternative text" />
      <TextInput source="caption" label="Caption" />
    </SimpleForm>
  </Edit>
);

/** The file itself, full size for images (a link otherwise). */
const FileLink = () => {
  const record = useRecordContext();
  if (!record) return null;
  const url = mediaUrl(record.url as string | undefined);
  return (
    <Box sx={{ mb: 2 }}>
      {String(record.mime ?? '').startsWith('image/') ? <img src={url} alt={String(record.alternativeText ?? '')} style={{ maxHeight: 240, maxWidth: '100%' }} /> : null}
      <div><a href={url} target="_blank" rel="noreferrer">{String(record.name)}</a> ({String(record.mime)}, {String(record.size)} KB)</div>
    </Box>
  );
};
