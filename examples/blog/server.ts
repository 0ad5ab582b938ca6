import { memoryEngine, mongoEngine } from '../../lib';
import { createBlogApp } from './app';

/**
 * `npm start`: the example API at http://localhost:1337/api, configured as in production: the blog model's Public
 * role (reads only), its API tokens for writes, and a durable store (`.data/content.db`, created on first start
 * and seeded once with the demo data; `DATA_FILE` moves it, `MONGODB_URI` stores on MongoDB instead). Uploaded
 * files go to `.data/uploads` (`UPLOADS_DIR`). `PORT` overrides the port; `SEED=false` starts empty.
 */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 1337);
  const uri = process.env.MONGODB_URI;
  const engine = uri ? mongoEngine({ uri }) : memoryEngine({ file: process.env.DATA_FILE ?? '.data/content.db' });
  const uploadsDir = process.env.UPLOADS_DIR ?? '.data/uploads';
  const { app } = await createBlogApp({ seed: process.env.SEED !== 'false', engine, uploadsDir });
  app.listen(port, () => {
    console.log(`content-router example: http://localhost:${port}/api/articles`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
