import { createContentRouter, memoryEngine } from '../../../lib';
import { httpComponents, httpContentTypes } from '../../fixtures/http-model';

describe('the engine starts only once every option is checked', () => {
  it('a router whose construction throws (a bad routes entry) never starts its engine', async () => {
    const engine = memoryEngine({ ephemeral: true });
    const init = jest.spyOn(engine, 'init');
    expect(() => createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine, routes: { 'api::nothing.nothing': { find: { query: {} } } } })).toThrow('CR_INVALID_ROUTES');
    await new Promise((resolve) => setImmediate(resolve));
    expect(init).not.toHaveBeenCalled();
  });

  it('a router built without a mistake starts it', async () => {
    const engine = memoryEngine({ ephemeral: true });
    const init = jest.spyOn(engine, 'init');
    const router = createContentRouter({ contentTypes: httpContentTypes, components: httpComponents, engine });
    await router.ready;
    expect(init).toHaveBeenCalledTimes(1);
    await engine.close();
  });
});
