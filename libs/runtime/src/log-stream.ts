// Asynchronous, buffered log output (issue 23): pino writes each line into a buffer, and the
// buffer goes to stdout in one write per turn of the event loop (or at once when it reaches
// 64 KiB), instead of one synchronous write per line. Nothing is dropped and the order is kept.
// The buffer is written out synchronously when the process exits — process.exit(), an uncaught
// exception or unhandled rejection (Node emits 'exit' for both), the signal handlers'
// exit (libs/runtime shutdown.ts) — because process.stdout writes synchronously to files and pipes on
// Linux and macOS. Only SIGKILL (or a native crash) can lose what one turn of the loop logged.
// Still process.stdout underneath, not a file descriptor of its own: whatever wraps stdout (a
// test, a log shipper) sees every line.

/** Flushed at once past this many bytes (a burst of lines within one turn). */
export const LOG_BUFFER_BYTES = 64 * 1024;

interface Sink {
  write(chunk: string): unknown;
}

export class BufferedLogStream {
  private chunks: string[] = [];
  private bytes = 0;
  private scheduled = false;

  constructor(
    private readonly sink: Sink = process.stdout,
    private readonly maxBytes = LOG_BUFFER_BYTES,
  ) {}

  /** pino's destination interface: one serialized line (with its newline) per call. */
  write(line: string): boolean {
    this.chunks.push(line);
    this.bytes += line.length;
    if (this.bytes >= this.maxBytes) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      }).unref();
    }
    return true;
  }

  /** Writes whatever is buffered now (synchronously, for stdout on a file or a pipe). */
  flush(): void {
    if (!this.chunks.length) return;
    const text = this.chunks.length === 1 ? this.chunks[0] : this.chunks.join('');
    this.chunks = [];
    this.bytes = 0;
    this.sink.write(text);
  }
}

let stdoutStream: BufferedLogStream | null = null;

/** The process's one buffered stdout, flushed on exit (every logger of the process shares it). */
export function bufferedStdout(): BufferedLogStream {
  if (!stdoutStream) {
    const stream = new BufferedLogStream(process.stdout);
    process.on('exit', () => stream.flush());
    stdoutStream = stream;
  }
  return stdoutStream;
}
