import { mongoEngine } from '../../lib';
import { createBlogApp } from './app';

/**
 * `npm start`: the example API at http://localhost:1337/api (PORT overrides; SEED=false starts empty;
 * MONGODB_URI stores on MongoDB, DATA_FILE persists the memory engine).
 */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 1337);
  const uri = process.env.MONGODB_URI;
  const engine = uri ? mongoEngine({ uri }) : undefined;
  const { app } = await createBlogApp({ seed: process.env.SEED !== 'false', dataFile: process.env.DATA_FILE, engine });
  app.listen(port, () => {
    console.log(`content-router example: http://localhost:${port}/api/articles`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
