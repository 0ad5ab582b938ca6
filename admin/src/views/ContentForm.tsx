import { Alert, Box, Button, MenuItem, TextField as MuiTextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import {
  Confirm, Create, DeleteButton, Edit, SaveButton, SimpleForm, Toolbar, useNotify, useRecordContext, useRefresh,
  useResourceContext,
} from 'react-admin';
import { dataProvider, documentAction, isPublished, SINGLE } from '../data-provider';
import { AttributeInputs } from '../inputs/AttributeInput';
import { getContentLocale, LOCALE_CHANGE } from '../locale';
import type { ContentType, ModelIndex } from '../model';

/** Unpublish or discard the draft: the two draft & publish actions that are not a write of the form. */
const DocumentActionButton = ({ action, label, confirm }: { action: 'unpublish' | 'discard-draft'; label: string; confirm: string }) => {
  const record = useRecordContext();
  const resource = useResourceContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  if (!record || !resource) return null;
  const run = async () => {
    setOpen(false);
    try {
      await documentAction(resource, record.id, action);
      notify(action === 'unpublish' ? 'Unpublished' : 'Draft discarded', { type: 'info' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <>
      <Button variant="outlined" color="warning" onClick={() => setOpen(true)}>{label}</Button>
      <Confirm isOpen={open} title={label} content={confirm} onConfirm={() => void run()} onClose={() => setOpen(false)} />
    </>
  );
};

/** Whether the record shown has a published version (re-read after each save and locale change). */
function usePublished(ct: ContentType): boolean {
  const record = useRecordContext();
  const [published, setPublished] = useState(false);
  useEffect(() => {
    let live = true;
    if (!record?.id || !ct.draftAndPublish || record.__missing) setPublished(false);
    else void isPublished(ct.route, record.id).then((p) => live && setPublished(p), () => undefined);
    return () => {
      live = false;
    };
    // Keyed on the record itself: each save gives a new one (a publish may leave updatedAt as it was).
  }, [record, ct]);
  return published;
}

/**
 * Writes the form and publishes (`?status=published`). react-admin caches the answer under the request's `meta`,
 * not under the record the page shows: the page is re-read.
 */
const PublishButton = ({ creating }: { creating: boolean }) => {
  const notify = useNotify();
  const refresh = useRefresh();
  return (
    <SaveButton
      label="Publish"
      type="button"
      variant="outlined"
      alwaysEnable
      mutationOptions={creating ? { meta: { status: 'published' } } : { meta: { status: 'published' }, onSuccess: () => { notify('Published', { type: 'info' }); refresh(); } }}
    />
  );
};

const FormToolbar = ({ ct, creating }: { ct: ContentType; creating: boolean }) => {
  const published = usePublished(ct);
  const p = ct.permissions;
  const canWrite = creating ? p.create : p.update || p.create;
  return (
    <Toolbar sx={{ gap: 1.5, flexWrap: 'wrap' }}>
      {canWrite && <SaveButton label={ct.draftAndPublish ? 'Save draft' : 'Save'} />}
      {canWrite && ct.draftAndPublish && p.publish && (
        <PublishButton creating={creating} />
      )}
      {!creating && published && p.update && (
        <DocumentActionButton action="unpublish" label="Unpublish" confirm="The published version is removed; the draft stays." />
      )}
      {!creating && published && p.update && (
        <DocumentActionButton action="discard-draft" label="Discard draft" confirm="The draft is reset to the published version." />
      )}
      <Box sx={{ flex: 1 }} />
      {!creating && p.delete && <DeleteButton mutationMode="pessimistic" />}
    </Toolbar>
  );
};

/** Fills the form with another locale's version of the document (to create this locale's from it). */
const CopyFromLocale = ({ model, ct }: { model: ModelIndex; ct: ContentType }) => {
  const record = useRecordContext();
  const { setValue } = useFormContext();
  const notify = useNotify();
  const current = getContentLocale() ?? model.defaultLocale;
  const others = model.model.locales.filter((l) => l.code !== current);
  if (!ct.localized || !record?.id || !others.length) return null;
  const copy = async (code: string) => {
    try {
      const { data } = await dataProvider.getOne(ct.route, { id: record.id, meta: { locale: code } });
      if ((data as { __missing?: boolean }).__missing) throw new Error(`No ${code} version to copy`);
      for (const name of Object.keys(ct.attributes)) {
        if (name in data) setValue(name, (data as Record<string, unknown>)[name], { shouldDirty: true });
      }
      notify(`Filled from ${code}: save to write the ${current} version`, { type: 'info' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Box sx={{ mb: 2, width: '100%' }}>
      {record.__missing && <Alert severity="info" sx={{ mb: 1 }}>This document has no {current} version yet: fill it in (or copy another locale's), then save to create it.</Alert>}
      <MuiTextField select size="small" label="Fill in from locale" value="" onChange={(e) => void copy(e.target.value)} sx={{ minWidth: 220 }}>
        {others.map((l) => <MenuItem key={l.code} value={l.code}>{l.name}</MenuItem>)}
      </MuiTextField>
    </Box>
  );
};

/**
 * The form of the record shown. A localization that does not exist yet gets a form of its own (keyed by its
 * locale): switching to it from an existing one must not keep that one's values, which a save would then write
 * into the new localization (react-admin keeps the fields the new record lacks).
 */
const Form = ({ model, ct, creating }: { model: ModelIndex; ct: ContentType; creating: boolean }) => {
  const record = useRecordContext();
  const key = record?.__missing ? `missing:${getContentLocale() ?? ''}` : 'present';
  return (
    <SimpleForm key={key} toolbar={<FormToolbar ct={ct} creating={creating} />} sx={{ maxWidth: 900 }} warnWhenUnsavedChanges>
      {!creating && <CopyFromLocale model={model} ct={ct} />}
      <AttributeInputs model={model} attributes={ct.attributes} />
    </SimpleForm>
  );
};

/** Re-reads the record when the content locale changes (another localization of the same document). */
function useLocaleRefresh(): void {
  const refresh = useRefresh();
  useEffect(() => {
    window.addEventListener(LOCALE_CHANGE, refresh);
    return () => window.removeEventListener(LOCALE_CHANGE, refresh);
  }, [refresh]);
}

export const ContentEdit = ({ model, ct }: { model: ModelIndex; ct: ContentType }) => {
  useLocaleRefresh();
  return (
    <Edit resource={ct.route} mutationMode="pessimistic" title={ct.displayName} redirect={false} {...(ct.kind === 'singleType' ? { id: SINGLE } : {})}>
      <Form model={model} ct={ct} creating={false} />
    </Edit>
  );
};

export const ContentCreate = ({ model, ct }: { model: ModelIndex; ct: ContentType }) => (
  <Create resource={ct.route} title={`New ${ct.displayName}`} redirect="edit">
    <Form model={model} ct={ct} creating />
  </Create>
);
