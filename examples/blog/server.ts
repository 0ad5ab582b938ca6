import { createBlogApp } from './app';

/** `npm start`: the example API at http://localhost:1337/api (PORT overrides; SEED=false starts empty). */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 1337);
  const { app } = await createBlogApp({ seed: process.env.SEED !== 'false', dataFile: process.env.DATA_FILE });
  app.listen(port, () => {
    console.log(`content-router example: http://localhost:${port}/api/articles`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
