import {
  AutocompleteInput, BooleanField, CreateButton, DatagridConfigurable, DateField, DateInput, FunctionField, List,
  NullableBooleanInput, NumberField, NumberInput, ReferenceArrayField, ReferenceField, ReferenceInput, SearchInput,
  SelectColumnsButton, SelectInput, required, TextField, TextInput, TopToolbar, FilterButton, type RaRecord,
} from 'react-admin';
import type { ReactElement } from 'react';
import { FilePreview } from '../inputs/MediaInput';
import { isMorph, isToOne, SCALAR_TYPES, TEXT_TYPES, type Attribute, type ContentType, type ModelIndex } from '../model';

/** How many attributes are shown before the user picks columns (kept per type in localStorage by react-admin). */
const DEFAULT_COLUMNS = 4;

function column(model: ModelIndex, name: string, attribute: Attribute): ReactElement | null {
  switch (attribute.type) {
    case 'boolean':
      return <BooleanField key={name} source={name} label={name} />;
    case 'integer':
    case 'decimal':
    case 'float':
      return <NumberField key={name} source={name} label={name} />;
    case 'date':
      return <DateField key={name} source={name} label={name} />;
    case 'datetime':
    case 'timestamp':
      return <DateField key={name} source={name} label={name} showTime />;
    case 'media':
      return (
        <FunctionField key={name} source={name} label={name} sortable={false} render={(record: RaRecord) => {
          const value = record[name] as RaRecord | RaRecord[] | null;
          const first = Array.isArray(value) ? value[0] : value;
          return first ? <FilePreview file={first} size={40} /> : null;
        }} />
      );
    case 'relation': {
      const target = model.byUid.get(attribute.target ?? '');
      if (!target || isMorph(attribute) || target.kind !== 'collectionType') return null;
      return isToOne(attribute) ? (
        <ReferenceField key={name} source={name} label={name} reference={target.route} sortable={false} link="edit">
          <TextField source={model.mainField(target)} />
        </ReferenceField>
      ) : (
        <ReferenceArrayField key={name} source={name} label={name} reference={target.route} sortable={false} />
      );
    }
    default:
      return SCALAR_TYPES.has(attribute.type) ? <TextField key={name} source={name} label={name} /> : null;
  }
}

function filterInput(model: ModelIndex, name: string, attribute: Attribute): ReactElement | null {
  switch (attribute.type) {
    case 'boolean':
      return <NullableBooleanInput key={name} source={name} label={name} />;
    case 'enumeration':
      return <SelectInput key={name} source={name} label={name} choices={(attribute.enum ?? []).map((v) => ({ id: v, name: v }))} />;
    case 'integer':
    case 'decimal':
    case 'float':
      return <NumberInput key={name} source={name} label={name} />;
    case 'date':
      return <DateInput key={name} source={name} label={name} />;
    case 'relation': {
      const target = model.byUid.get(attribute.target ?? '');
      if (!target || isMorph(attribute) || target.kind !== 'collectionType') return null;
      return (
        <ReferenceInput key={name} source={name} reference={target.route} label={name}>
          <AutocompleteInput label={name} optionText={model.mainField(target)} filterToQuery={(q: string) => (q ? { q } : {})} />
        </ReferenceInput>
      );
    }
    default:
      return TEXT_TYPES.has(attribute.type) && !attribute.private ? <TextInput key={name} source={name} label={`${name} contains`} /> : null;
  }
}

const ListActions = () => (
  <TopToolbar>
    <SelectColumnsButton />
    <FilterButton />
    <CreateButton />
  </TopToolbar>
);

/** The list of a collection type: chosen columns, sort, filters (relations too), search, pagination, status. */
export const ContentList = ({ model, ct }: { model: ModelIndex; ct: ContentType }) => {
  const entries = Object.entries(ct.attributes).filter(([, a]) => !a.private);
  const columns = entries.map(([name, a]) => column(model, name, a)).filter((c): c is ReactElement => c !== null);
  const scalarNames = entries.filter(([, a]) => SCALAR_TYPES.has(a.type) || a.type === 'media').map(([name]) => name);
  const omit = entries.map(([name]) => name).filter((name) => !scalarNames.slice(0, DEFAULT_COLUMNS).includes(name));
  const filters = [
    ...(entries.some(([, a]) => TEXT_TYPES.has(a.type)) ? [<SearchInput key="q" source="q" alwaysOn placeholder="Search" />] : []),
    ...(ct.draftAndPublish && model.readsDrafts(ct)
      ? [<SelectInput key="status" source="status" label="Status" alwaysOn validate={required()} choices={[{ id: 'draft', name: 'Draft' }, { id: 'published', name: 'Published' }]} />]
      : []),
    ...entries.map(([name, a]) => filterInput(model, name, a)).filter((f): f is ReactElement => f !== null),
  ];
  return (
    <List resource={ct.route} title={ct.displayName} filters={filters} actions={<ListActions />} sort={{ field: 'updatedAt', order: 'DESC' }} perPage={10} filterDefaultValues={ct.draftAndPublish && model.readsDrafts(ct) ? { status: 'draft' } : {}} storeKey={`list.${ct.route}`}>
      <DatagridConfigurable preferenceKey={`columns.${ct.route}`} omit={omit} rowClick="edit" bulkActionButtons={false}>
        {columns}
        <DateField source="updatedAt" label="updatedAt" showTime />
      </DatagridConfigurable>
    </List>
  );
};
