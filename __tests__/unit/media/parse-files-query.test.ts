import { memoryEngine } from '../../../lib/engine';
import { parseFilesQuery } from '../../../lib/media';

const rows = [
  { id: 1, name: 'tiny.png', mime: 'image/png', size: 0.99, width: 16, ext: '.png' },
  { id: 2, name: 'Notes.txt', mime: 'text/plain', size: 0.05, width: null, ext: '.txt' },
  { id: 3, name: 'large.png', mime: 'image/png', size: 70.17, width: 640, ext: '.png' },
  { id: 4, name: 'a.b*c.jpg', mime: 'image/jpeg', size: 12, width: 100, ext: '.jpg' },
];

async function run(query: string): Promise<number[]> {
  const engine = memoryEngine({ ephemeral: true });
  await engine.insertMany('files', rows);
  const { filter, options } = parseFilesQuery(query);
  return (await engine.find('files', filter, options)).map((r) => r.id as number);
}

describe('parseFilesQuery on the memory engine', () => {
  test.each([
    ['', [1, 2, 3, 4]],
    ['filters[mime][$eq]=image/png', [1, 3]],
    ['filters[mime]=text/plain', [2]],
    ['filters[width][$gt]=50', [3, 4]],
    ['filters[width][$null]=true', [2]],
    ['filters[width][$notNull]=true', [1, 3, 4]],
    ['filters[name][$containsi]=notes', [2]],
    ['filters[name][$contains]=b*c', [4]],
    ['filters[name][$contains]=.*', []],
    ['filters[name][$startsWith]=t', [1]],
    ['filters[name][$endsWithi]=.PNG', [1, 3]],
    ['filters[id][$in][0]=1&filters[id][$in][1]=4', [1, 4]],
    ['filters[id][$notIn][0]=1', [2, 3, 4]],
    ['filters[size][$between][0]=1&filters[size][$between][1]=20', [4]],
    ['filters[$or][0][id]=1&filters[$or][1][ext]=.txt', [1, 2]],
    ['filters[$not][mime][$startsWith]=image/', [2]],
    ['sort=size:desc', [3, 4, 1, 2]],
    ['sort[0]=mime:asc&sort[1]=id:desc', [4, 3, 1, 2]],
    ['pagination[page]=2&pagination[pageSize]=3', [4]],
    ['pagination[start]=1&pagination[limit]=2', [2, 3]],
  ])('%s', async (query, ids) => {
    expect(await run(query)).toEqual(ids);
  });

  test.each([
    ['filters[nope]=1', 'Invalid key nope'],
    ['filters[name][$regex]=.*', 'Invalid key $regex at name.$regex'],
    ['filters[name][$where]=1', 'Invalid key $where at name.$where'],
    ['filters[width][$gt]=abc', 'Invalid value for $eq at width'],
    ['sort=nope:asc', 'Invalid key nope'],
    ['sort=name:sideways', 'Invalid order. order can only be one of asc|desc|ASC|DESC'],
    ['pagination[page]=0', "Invalid 'page' parameter. Expected an integer >= 1"],
    ['pagination[page]=1&pagination[start]=0', 'Cannot use both page & offset pagination in the same query'],
  ])('%s -> 400 %s', (query, message) => {
    expect(() => parseFilesQuery(query)).toThrow(message);
  });
});
