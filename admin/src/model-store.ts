// The model of the current session, fetched once per login (it depends on the caller's role).
import { request } from './api';
import { ModelIndex, type Model } from './model';

let current: Promise<ModelIndex> | null = null;

export function loadModel(): Promise<ModelIndex> {
  current ??= request<{ data: Model }>('/content-router/model').then(
    (json) => new ModelIndex(json.data),
    (error: unknown) => {
      current = null;
      throw error;
    },
  );
  return current;
}

export function forgetModel(): void {
  current = null;
}
