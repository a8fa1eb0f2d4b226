// globalSetup checks, once per test run, that the servers the suites start are installed, so a
// missing binary fails the run at once with how to install it.
import { etcdBinary, findBinary, natsBinary } from '../binaries';

export default async function globalSetup(): Promise<void> {
  findBinary(etcdBinary);
  findBinary(natsBinary);
}
