// The custom tools' worker thread (bundled as dist/custom-tool-worker.js): evaluates approved tool files and runs their handlers.
import { serveJobs } from '../../ground/workers/serve';
import { customToolHandlers } from './worker-tasks';

serveJobs(customToolHandlers);
