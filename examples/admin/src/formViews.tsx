import type { ComponentType } from 'react';
import { Create, Edit, type RaRecord, type RedirectionSideEffect } from 'react-admin';

/**
 * The edit and create views of a resource: one form, and a `transform` that sends the edited attributes only
 * (ra-strapi would send the whole record back, see toArticleBody). Edits wait for the API's answer
 * (pessimistic), so that a refused save leaves the form as it was, with the API's message.
 */
export function formViews(Form: ComponentType, transform: (record: RaRecord) => object, afterCreate: RedirectionSideEffect = 'list') {
  const EditView = () => (
    <Edit transform={transform} mutationMode="pessimistic">
      <Form />
    </Edit>
  );
  const CreateView = () => (
    <Create transform={transform} redirect={afterCreate}>
      <Form />
    </Create>
  );
  return { EditView, CreateView };
}
