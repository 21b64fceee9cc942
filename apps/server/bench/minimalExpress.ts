// The calibration of the benchmark: the smallest Express 5 JSON route, on the port given, so that the
// server's figures can be read against what this machine and load generator do with Express alone.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/minimal', (_req, res) => {
  res.json([{ name: 'main', protected: false }]);
});
const listener = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = listener.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
process.on('SIGTERM', () => listener.close(() => process.exit(0)));
