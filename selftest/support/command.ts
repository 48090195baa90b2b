import { spawn } from 'node:child_process';

/** What a command printed and how it ended. */
export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command run in `cwd`, asynchronously (a bank or a sandbox in this process answers while it
 * runs), killed after `timeout` ms.
 */
export function commandAsync(
  command: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; timeout: number },
): Promise<CommandResult> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeout);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}
