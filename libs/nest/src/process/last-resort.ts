// installLastResortLogging is the final net of a Plinth process: an error that escaped every
// boundary (a throw in a timer or an event handler, a promise nobody awaited) is logged, not
// left to end the process and every request it serves. Requests have their own boundary
// (@plinth/apiserver's RequestBoundary) and the gRPC and NATS services answer a failed call
// with an error; this only catches what those missed, so each line it logs is a bug to fix.
import { Logger } from '@nestjs/common';

let installed = false;

export function installLastResortLogging(context: string): void {
  if (installed) return;
  installed = true;
  const logger = new Logger(context);
  const describe = (err: unknown) => {
    try {
      return err instanceof Error ? (err.stack ?? err.message) : String(err);
    } catch {
      return 'an error that cannot be printed';
    }
  };
  process.on('uncaughtException', (err) => logger.error(`uncaught exception, kept running: ${describe(err)}`));
  process.on('unhandledRejection', (reason) => logger.error(`unhandled rejection, kept running: ${describe(reason)}`));
}
