// Structured log lines. Modules take `log` from their dependencies; tests pass a collecting one.

export function consoleLog(level, message, fields = {}) {
  console.log(JSON.stringify({ level, message, ...fields }));
}

export function collectingLog() {
  const lines = [];
  const log = (level, message, fields = {}) => lines.push({ level, message, ...fields });
  log.lines = lines;
  return log;
}
