import { LOGGING_LEVELS, type LoggingLevel } from '../../wire-types/index.js';

/** RFC 5424 severity order: a message is sent when its level is at or above the threshold. */
const rank: Record<LoggingLevel, number> = Object.fromEntries(LOGGING_LEVELS.map((level, i) => [level, i])) as Record<LoggingLevel, number>;

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(rank, value);
}

export function shouldLog(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold !== undefined && rank[level] >= rank[threshold];
}
