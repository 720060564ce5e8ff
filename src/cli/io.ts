/** What a command of the CLI reads and writes: its output lines, its environment, its Ctrl-C. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}
