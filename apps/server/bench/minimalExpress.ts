// The calibration of the benchmark: the smallest Express 5 JSON route, on the port given, so that the
// server's figures can be read against what this machine and load generator do with Express alone.
// `PUT /bodies/:name` stores a JSON body and `GET /bodies/:name` sends it back the way a route sends its
// answer (res.json: serialised and given an ETag on every request): what Express alone costs for a response
// of that size, the ceiling of any server that builds that response per request.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/minimal', (_req, res) => {
  res.json([{ name: 'main', protected: false }]);
});
const bodies = new Map<string, unknown>();
app.put('/bodies/:name', express.json({ limit: '50mb' }), (req, res) => {
  bodies.set(req.params.name, req.body);
  res.status(204).end();
});
app.get('/bodies/:name', (req, res) => {
  if (!bodies.has(req.params.name)) return void res.status(404).json({ message: '404 Not Found' });
  res.json(bodies.get(req.params.name));
});
const listener = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = listener.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
process.on('SIGTERM', () => listener.close(() => process.exit(0)));
