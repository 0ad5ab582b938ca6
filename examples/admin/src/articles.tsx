import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  ChipField,
  Datagrid,
  DateField,
  DateInput,
  DeleteButton,
  EditButton,
  ImageField,
  List,
  NumberField,
  NumberInput,
  ReferenceArrayField,
  ReferenceArrayInput,
  ReferenceField,
  ReferenceInput,
  SaveButton,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  SingleFieldList,
  TextField,
  TextInput,
  Toolbar,
  required,
  type RaRecord,
} from 'react-admin';
import { formViews } from './formViews';

const articleFilters = [
  <SelectInput
    key="status"
    source="status"
    label="Status"
    alwaysOn
    emptyText={false as never}
    choices={[
      { id: 'draft', name: 'Drafts (every article)' },
      { id: 'published', name: 'Published' },
    ]}
  />,
  <TextInput key="title" source="title_contains" label="Title contains" alwaysOn />,
  <BooleanInput key="featured" source="featured" label="Featured" />,
  <DateInput key="from" source="publishDate_gte" label="Published on or after" />,
];

export const ArticleList = () => (
  <List
    filters={articleFilters}
    filterDefaultValues={{ status: 'draft' }}
    sort={{ field: 'publishDate', order: 'DESC' }}
    perPage={10}
  >
    <Datagrid rowClick="edit" bulkActionButtons={false}>
      <ImageField source="cover.formats.thumbnail.url" label="Cover" sortable={false} sx={{ '& img': { maxWidth: 64, maxHeight: 48, objectFit: 'cover' } }} />
      <TextField source="title" />
      <ReferenceField source="author" reference="authors" sortBy="author.name" link="show" />
      <ReferenceArrayField source="categories" reference="categories" sortable={false}>
        <SingleFieldList linkType={false}>
          <ChipField source="name" size="small" />
        </SingleFieldList>
      </ReferenceArrayField>
      <DateField source="publishDate" />
      <NumberField source="views" />
      <BooleanField source="featured" />
      <EditButton />
    </Datagrid>
  </List>
);

/**
 * What the form sends: the edited attributes only. ra-strapi sends the whole record back otherwise (populated
 * relations turned into documentIds, media, localizations), and its body builder rewrites an array of strings
 * into objects of characters; `{ set: [...] }` is Strapi 5's own shape for replacing a to-many relation and
 * passes through it unchanged.
 */
const toArticleBody = (record: RaRecord) => ({
  title: record.title,
  slug: record.slug || null,
  description: record.description ?? null,
  publishDate: record.publishDate || null,
  views: record.views ?? 0,
  rating: record.rating ?? null,
  featured: Boolean(record.featured),
  author: record.author ?? null,
  categories: { set: record.categories ?? [] },
  seo: record.seo?.metaTitle
    ? { ...(record.seo.id ? { id: record.seo.id } : {}), metaTitle: record.seo.metaTitle, metaDescription: record.seo.metaDescription ?? null }
    : null,
});

const ArticleToolbar = () => (
  <Toolbar sx={{ gap: 2 }}>
    <SaveButton label="Save draft" />
    <SaveButton label="Publish" type="button" variant="outlined" mutationOptions={{ meta: { status: 'published' } }} alwaysEnable />
    <DeleteButton sx={{ marginLeft: 'auto' }} mutationMode="pessimistic" />
  </Toolbar>
);

const ArticleForm = () => (
  <SimpleForm toolbar={<ArticleToolbar />} sx={{ maxWidth: 760 }}>
    <TextInput source="title" validate={required()} fullWidth />
    <TextInput source="slug" helperText="Letters, digits, - _ . ~" />
    <TextInput source="description" multiline fullWidth />
    <ReferenceInput source="author" reference="authors" sort={{ field: 'name', order: 'ASC' }}>
      <AutocompleteInput optionText="name" filterToQuery={(q) => ({ name_contains: q })} />
    </ReferenceInput>
    <ReferenceArrayInput source="categories" reference="categories" sort={{ field: 'name', order: 'ASC' }}>
      <AutocompleteArrayInput optionText="name" filterToQuery={(q) => ({ name_contains: q })} />
    </ReferenceArrayInput>
    <DateInput source="publishDate" />
    <NumberInput source="views" step={1} />
    <NumberInput source="rating" step={0.1} />
    <BooleanInput source="featured" />
    <TextInput source="seo.metaTitle" label="SEO title" helperText="The SEO component (shared.seo): a title is required to keep it" fullWidth />
    <TextInput source="seo.metaDescription" label="SEO description" multiline fullWidth />
  </SimpleForm>
);

export const { EditView: ArticleEdit, CreateView: ArticleCreate } = formViews(ArticleForm, toArticleBody, 'edit');

export const ArticleShow = () => (
  <Show>
    <SimpleShowLayout>
      <ImageField source="cover.url" label="Cover" />
      <TextField source="title" />
      <TextField source="slug" />
      <TextField source="description" />
      <ReferenceField source="author" reference="authors" link="show" />
      <ReferenceArrayField source="categories" reference="categories" />
      <DateField source="publishDate" />
      <NumberField source="views" />
      <NumberField source="rating" />
      <BooleanField source="featured" />
      <TextField source="seo.metaTitle" label="SEO title" />
      <TextField source="seo.metaDescription" label="SEO description" />
    </SimpleShowLayout>
  </Show>
);
