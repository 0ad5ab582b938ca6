import {
  AutocompleteInput,
  Datagrid,
  FilterList,
  FilterListItem,
  List,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  required,
  type RaRecord,
} from 'react-admin';
import { formViews } from './formViews';
import { Card, CardContent } from '@mui/material';
import AccountTreeIcon from '@mui/icons-material/AccountTree';

const categoryFilters = [<TextInput key="name" source="name_contains" label="Name contains" alwaysOn />];

/** ra-strapi's `<field>_isnull` filter: `filters[parent][$null]=true`, the top of the tree. */
const TreeFilter = () => (
  <Card sx={{ order: -1, mr: 2, mt: 8, width: 200 }}>
    <CardContent>
      <FilterList label="Tree" icon={<AccountTreeIcon />}>
        <FilterListItem label="Top level only" value={{ parent_isnull: true }} />
      </FilterList>
    </CardContent>
  </Card>
);

export const CategoryList = () => (
  <List filters={categoryFilters} aside={<TreeFilter />} sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="name" />
      <TextField source="slug" />
      <ReferenceField source="parent" reference="categories" sortBy="parent.name" link="show" emptyText="(top level)" />
    </Datagrid>
  </List>
);

/** The edited attributes only (see toArticleBody). */
const toCategoryBody = (record: RaRecord) => ({
  name: record.name,
  slug: record.slug || null,
  description: record.description ?? null,
  parent: record.parent ?? null,
});

const CategoryForm = () => (
  <SimpleForm>
    <TextInput source="name" validate={required()} />
    <TextInput source="slug" />
    <TextInput source="description" multiline fullWidth />
    <ReferenceInput source="parent" reference="categories" sort={{ field: 'name', order: 'ASC' }}>
      <AutocompleteInput optionText="name" filterToQuery={(q) => ({ name_contains: q })} />
    </ReferenceInput>
  </SimpleForm>
);

export const { EditView: CategoryEdit, CreateView: CategoryCreate } = formViews(CategoryForm, toCategoryBody);

export const CategoryShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="name" />
      <TextField source="slug" />
      <TextField source="description" />
      <ReferenceField source="parent" reference="categories" link="show" emptyText="(top level)" />
      <ReferenceManyField label="Subcategories" reference="categories" target="parent" sort={{ field: 'name', order: 'ASC' }}>
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" />
          <TextField source="slug" />
        </Datagrid>
      </ReferenceManyField>
      <ReferenceManyField label="Articles (drafts)" reference="articles" target="categories" sort={{ field: 'title', order: 'ASC' }}>
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="title" />
        </Datagrid>
      </ReferenceManyField>
    </SimpleShowLayout>
  </Show>
);
