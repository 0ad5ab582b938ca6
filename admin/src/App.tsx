import DescriptionIcon from '@mui/icons-material/Description';
import PermMediaIcon from '@mui/icons-material/PermMedia';
import WebAssetIcon from '@mui/icons-material/WebAsset';
import { useMemo } from 'react';
import { Admin, localStorageStore, Resource } from 'react-admin';
import { getApiUrl } from './api';
import { authProvider } from './auth-provider';
import { dataProvider } from './data-provider';
import { FILES, type ModelIndex } from './model';
import { ContentCreate, ContentEdit } from './views/ContentForm';
import { ContentList } from './views/ContentList';
import { Layout } from './views/Layout';
import { LoginPage } from './views/LoginPage';
import { MediaEdit, MediaList } from './views/Media';

/** One resource per content type the caller may act on (a single type: its one edit page), and the media library. */
function resources(model: ModelIndex | undefined) {
  if (!model) return [];
  const list = model.model.contentTypes.map((ct) => {
    const options = { label: ct.displayName };
    if (ct.kind === 'singleType') {
      return <Resource key={ct.route} name={ct.route} options={options} icon={WebAssetIcon} list={<ContentEdit model={model} ct={ct} />} />;
    }
    const p = ct.permissions;
    return (
      <Resource
        key={ct.route}
        name={ct.route}
        options={options}
        icon={DescriptionIcon}
        recordRepresentation={model.mainField(ct)}
        list={p.find ? <ContentList model={model} ct={ct} /> : undefined}
        edit={p.findOne || p.update ? <ContentEdit model={model} ct={ct} /> : undefined}
        create={p.create ? <ContentCreate model={model} ct={ct} /> : undefined}
      />
    );
  });
  const media = model.model.media;
  if (media.find || media.upload) {
    list.push(<Resource key={FILES} name={FILES} options={{ label: 'Media library' }} icon={PermMediaIcon} list={MediaList} edit={media.update ? MediaEdit : undefined} recordRepresentation="name" />);
  }
  return list;
}

export const App = () => {
  // react-admin's preferences (list columns, filters) in localStorage, one set per API.
  const store = useMemo(() => localStorageStore(undefined, `content-router-admin:${getApiUrl()}`), []);
  return (
  <Admin store={store} dataProvider={dataProvider} authProvider={authProvider} loginPage={LoginPage} layout={Layout} title="content-router admin" disableTelemetry requireAuth>
    {(permissions: ModelIndex | undefined) => resources(permissions)}
  </Admin>
  );
};
