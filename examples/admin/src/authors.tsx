import {
  Datagrid,
  DateField,
  EmailField,
  ImageField,
  List,
  ReferenceManyField,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  email,
  required,
  type RaRecord,
} from 'react-admin';
import { formViews } from './formViews';

const authorFilters = [<TextInput key="name" source="name_contains" label="Name contains" alwaysOn />];

export const AuthorList = () => (
  <List filters={authorFilters} sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <ImageField source="avatar.url" label="Avatar" sortable={false} sx={{ '& img': { width: 40, height: 40, objectFit: 'cover', borderRadius: '50%' } }} />
      <TextField source="name" />
      <EmailField source="email" />
      <DateField source="updatedAt" showTime />
    </Datagrid>
  </List>
);

/** The edited attributes only (see toArticleBody): not the avatar, not the populated articles. */
const toAuthorBody = (record: RaRecord) => ({
  name: record.name,
  email: record.email || null,
  bio: record.bio ?? null,
  internalNote: record.internalNote ?? null,
});

const AuthorForm = () => (
  <SimpleForm>
    <TextInput source="name" validate={required()} />
    <TextInput source="email" validate={email()} />
    <TextInput source="bio" multiline fullWidth />
    <TextInput source="internalNote" />
  </SimpleForm>
);

export const { EditView: AuthorEdit, CreateView: AuthorCreate } = formViews(AuthorForm, toAuthorBody);

export const AuthorShow = () => (
  <Show>
    <SimpleShowLayout>
      <ImageField source="avatar.url" label="Avatar" />
      <TextField source="name" />
      <EmailField source="email" />
      <TextField source="bio" />
      <ReferenceManyField label="Articles (drafts)" reference="articles" target="author" sort={{ field: 'title', order: 'ASC' }}>
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="title" />
          <DateField source="publishDate" />
        </Datagrid>
      </ReferenceManyField>
    </SimpleShowLayout>
  </Show>
);
