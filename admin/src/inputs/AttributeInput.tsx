import { Box, Button, Menu, MenuItem, Typography } from '@mui/material';
import { useState } from 'react';
import {
  ArrayInput, AutocompleteArrayInput, AutocompleteInput, BooleanInput, DateInput, DateTimeInput, FormDataConsumer,
  NumberInput, PasswordInput, ReferenceArrayInput, ReferenceInput, SelectInput, SimpleFormIterator, TextInput,
  useSimpleFormIterator,
} from 'react-admin';
import { isMorph, isToOne, type Attribute, type Attributes, type ModelIndex } from '../model';
import { BlocksInput } from './BlocksInput';
import { JsonInput } from './JsonInput';
import { MediaInput } from './MediaInput';
import { RelationOrder } from './RelationOrder';
import { UidInput } from './UidInput';

const full = { width: '100%' } as const;

const bigInteger = (value: unknown) => (value == null || value === '' || /^-?\d+$/.test(String(value)) ? undefined : 'A whole number');

/** `HH:mm` from the browser's time input -> Strapi's `HH:mm:ss.SSS`; and back. */
const parseTime = (value: string) => (!value ? null : value.length === 5 ? `${value}:00.000` : value.length === 8 ? `${value}.000` : value);
const formatTime = (value: unknown) => (typeof value === 'string' ? value.slice(0, 8) : '');

/** The input of one attribute of a content type or component, by its stored `type` (custom fields included). */
export const AttributeInput = ({ model, name, attribute, source }: { model: ModelIndex; name: string; attribute: Attribute; source: string }) => {
  const label = attribute.customField ? `${name} (${attribute.customField})` : name;
  switch (attribute.type) {
    case 'string':
      return <TextInput source={source} label={label} sx={full} />;
    case 'text':
      return <TextInput source={source} label={label} multiline minRows={2} sx={full} />;
    case 'richtext':
      return <TextInput source={source} label={`${label} (Markdown)`} multiline minRows={5} sx={full} />;
    case 'blocks':
      return <BlocksInput source={source} label={label} />;
    case 'json':
      return <JsonInput source={source} label={label} />;
    case 'email':
      return <TextInput source={source} label={label} type="email" sx={full} />;
    case 'password':
      return <PasswordInput source={source} label={label} helperText="Write-only: leave empty to keep it" autoComplete="new-password" />;
    case 'uid':
      return <UidInput source={source} label={label} targetField={attribute.targetField} />;
    case 'integer':
      return <NumberInput source={source} label={label} step={1} />;
    case 'decimal':
    case 'float':
      return <NumberInput source={source} label={label} step="any" />;
    case 'biginteger':
      return <TextInput source={source} label={label} validate={bigInteger} inputProps={{ inputMode: 'numeric' }} />;
    case 'date':
      return <DateInput source={source} label={label} />;
    case 'time':
      return <TextInput source={source} label={label} type="time" inputProps={{ step: 1 }} parse={parseTime} format={formatTime} InputLabelProps={{ shrink: true }} />;
    case 'datetime':
    case 'timestamp':
      return <DateTimeInput source={source} label={label} parse={(v: string) => (v ? new Date(v).toISOString() : null)} />;
    case 'boolean':
      return <BooleanInput source={source} label={label} />;
    case 'enumeration':
      return <SelectInput source={source} label={label} choices={(attribute.enum ?? []).map((v) => ({ id: v, name: v }))} emptyText="(none)" />;
    case 'media':
      return <MediaInput source={source} label={label} multiple={!!attribute.multiple} />;
    case 'relation':
      return <RelationInput model={model} attribute={attribute} source={source} label={label} />;
    case 'component':
      return <ComponentInput model={model} attribute={attribute} source={source} label={label} />;
    case 'dynamiczone':
      return <DynamicZoneInput model={model} attribute={attribute} source={source} label={label} />;
    default:
      return <JsonInput source={source} label={`${label} [${attribute.type}]`} />;
  }
};

/** Every attribute of `attributes` (sources relative to `prefix`). */
export const AttributeInputs = ({ model, attributes, prefix = '' }: { model: ModelIndex; attributes: Attributes; prefix?: string }) => (
  <>
    {Object.entries(attributes).map(([name, attribute]) => (
      <AttributeInput key={name} model={model} name={name} attribute={attribute} source={`${prefix}${name}`} />
    ))}
  </>
);

/**
 * A relation: to-one as a searchable select, to-many as an ordered searchable multi-select (the order chosen is
 * the order written, `{ set: [...] }`). A target the caller cannot see (or a morph relation) is not editable here.
 */
const RelationInput = ({ model, attribute, source, label }: { model: ModelIndex; attribute: Attribute; source: string; label: string }) => {
  const target = model.byUid.get(attribute.target ?? '');
  if (!target || isMorph(attribute) || target.kind !== 'collectionType') {
    return <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>{label}: a relation to {attribute.target ?? 'several types'}, not editable with this login.</Typography>;
  }
  const optionText = model.mainField(target);
  const filterToQuery = (q: string) => (q ? { q } : {});
  return isToOne(attribute) ? (
    <ReferenceInput source={source} reference={target.route}>
      <AutocompleteInput label={label} optionText={optionText} filterToQuery={filterToQuery} sx={full} />
    </ReferenceInput>
  ) : (
    <>
      <ReferenceArrayInput source={source} reference={target.route}>
        <AutocompleteArrayInput label={label} optionText={optionText} filterToQuery={filterToQuery} sx={full} helperText="In the order below" />
      </ReferenceArrayInput>
      <RelationOrder source={source} reference={target.route} optionText={optionText} label={label} />
    </>
  );
};

/** A component: its attributes in a group; repeatable ones in react-admin's iterator (add, remove, reorder). */
const ComponentInput = ({ model, attribute, source, label }: { model: ModelIndex; attribute: Attribute; source: string; label: string }) => {
  const component = model.components.get(attribute.component ?? '');
  if (!component) return null;
  if (attribute.repeatable) {
    return (
      <ArrayInput source={source} label={`${label} (${component.displayName}, repeatable)`} sx={full}>
        <SimpleFormIterator inline={false} fullWidth>
          <AttributeInputs model={model} attributes={component.attributes} />
        </SimpleFormIterator>
      </ArrayInput>
    );
  }
  return (
    <Box component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, mb: 2, width: '100%' }}>
      <legend>{label} ({component.displayName})</legend>
      <AttributeInputs model={model} attributes={component.attributes} prefix={`${source}.`} />
    </Box>
  );
};

/** The add button of a dynamic zone: a menu of its allowed components. */
const AddComponentButton = ({ model, uids, label }: { model: ModelIndex; uids: string[]; label: string }) => {
  const { add } = useSimpleFormIterator();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button size="small" onClick={(e) => setAnchor(e.currentTarget)} aria-haspopup="menu">Add to {label}</Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {uids.map((uid) => (
          <MenuItem key={uid} onClick={() => { add({ __component: uid }); setAnchor(null); }}>
            {model.components.get(uid)?.displayName ?? uid} ({uid})
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

/** A dynamic zone: entries of its allowed components, added from a menu, removed and reordered. */
const DynamicZoneInput = ({ model, attribute, source, label }: { model: ModelIndex; attribute: Attribute; source: string; label: string }) => (
  <ArrayInput source={source} label={`${label} (dynamic zone)`} sx={full}>
    <SimpleFormIterator inline={false} fullWidth addButton={<AddComponentButton model={model} uids={attribute.components ?? []} label={label} />}>
      <FormDataConsumer>
        {({ scopedFormData }) => {
          const uid = String((scopedFormData as { __component?: string } | undefined)?.__component ?? '');
          const component = model.components.get(uid);
          return (
            <Box sx={{ width: '100%' }}>
              <Typography variant="subtitle2">{component?.displayName ?? uid} <Typography component="span" variant="caption">({uid})</Typography></Typography>
              {component && <AttributeInputs model={model} attributes={component.attributes} />}
            </Box>
          );
        }}
      </FormDataConsumer>
    </SimpleFormIterator>
  </ArrayInput>
);
