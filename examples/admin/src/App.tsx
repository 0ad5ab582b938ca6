import { Admin, Resource } from 'react-admin';
import ArticleIcon from '@mui/icons-material/Article';
import CategoryIcon from '@mui/icons-material/Category';
import PersonIcon from '@mui/icons-material/Person';
import { ArticleCreate, ArticleEdit, ArticleList, ArticleShow } from './articles';
import { AuthorCreate, AuthorEdit, AuthorList, AuthorShow } from './authors';
import { CategoryCreate, CategoryEdit, CategoryList, CategoryShow } from './categories';
import { Dashboard } from './Dashboard';
import { Layout } from './Layout';
import { dataProvider } from './dataProvider';


export const App = () => (
  <Admin dataProvider={dataProvider} layout={Layout} dashboard={Dashboard} title="content-router admin" disableTelemetry>
    <Resource name="articles" icon={ArticleIcon} list={ArticleList} edit={ArticleEdit} create={ArticleCreate} show={ArticleShow} recordRepresentation="title" />
    <Resource name="authors" icon={PersonIcon} list={AuthorList} edit={AuthorEdit} create={AuthorCreate} show={AuthorShow} recordRepresentation="name" />
    <Resource name="categories" icon={CategoryIcon} list={CategoryList} edit={CategoryEdit} create={CategoryCreate} show={CategoryShow} recordRepresentation="name" />
  </Admin>
);
