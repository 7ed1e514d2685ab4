// The CLI run in process against one workspace, its output captured: what the CLI tests read.
import { main } from '../../src/cli/main';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `autosnippet -w ROOT …args`, in this process. */
export async function cli(root: string, ...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(['-w', root, ...args], {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
  });
  return { code, stdout, stderr };
}
