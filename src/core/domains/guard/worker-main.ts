// The guard's worker thread (bundled as dist/guard-worker.js): scans files and analyses patterns.
import { serveJobs } from '../../ground/workers/serve';
import { guardWorkerHandlers } from './worker-tasks';

serveJobs(guardWorkerHandlers);
